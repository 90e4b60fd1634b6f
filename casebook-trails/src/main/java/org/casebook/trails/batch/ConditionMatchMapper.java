package org.casebook.trails.batch;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.casebook.trails.Behaviours;
import org.casebook.trails.Event;
import org.casebook.trails.TrailCondition;
import org.casebook.trails.TrailsRowCodec;

/** Evaluates the job's condition on one user's events; writes the uid when they satisfy it. */
final class ConditionMatchMapper extends Mapper<Text, Result[], Text, NullWritable> {
  enum Counters {
    USERS,
    MATCHED_USERS,
    EVENTS
  }

  private TrailCondition condition;
  private Behaviours behaviours;

  @Override
  protected void setup(Context context) {
    behaviours = JobBehaviours.of(context.getConfiguration());
    condition =
        TrailCondition.parse(
            context.getConfiguration().get(ConditionMatchJob.CONDITION), behaviours);
  }

  @Override
  protected void map(Text uid, Result[] rows, Context context)
      throws IOException, InterruptedException {
    List<Event> events = TrailsRowCodec.decode(uid.toString(), rows, behaviours);
    context.getCounter(Counters.USERS).increment(1);
    context.getCounter(Counters.EVENTS).increment(events.size());
    if (condition.matches(events)) {
      context.write(uid, NullWritable.get());
      context.getCounter(Counters.MATCHED_USERS).increment(1);
    }
  }
}
