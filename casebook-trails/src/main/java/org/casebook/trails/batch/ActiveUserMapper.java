package org.casebook.trails.batch;

import java.io.IOException;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.casebook.core.Json;
import org.casebook.trails.Behaviour;
import org.casebook.trails.Behaviours;
import org.casebook.trails.Event;
import org.casebook.trails.TrailsRowCodec;
import org.casebook.trails.wire.EventView;

/** Rebuilds one user's trail from the reader's results; emits it if all four behaviours occur. */
final class ActiveUserMapper extends Mapper<Text, Result[], Text, Text> {
  enum Counters {
    USERS,
    ACTIVE_USERS,
    EVENTS
  }

  private Behaviours behaviours;

  @Override
  protected void setup(Context context) {
    behaviours = JobBehaviours.of(context.getConfiguration());
  }

  @Override
  protected void map(Text uid, Result[] results, Context context)
      throws IOException, InterruptedException {
    String user = uid.toString();
    List<Event> events = TrailsRowCodec.decode(user, results, behaviours);
    context.getCounter(Counters.USERS).increment(1);
    context.getCounter(Counters.EVENTS).increment(events.size());
    Set<Behaviour> seen = new HashSet<>();
    events.forEach(e -> seen.add(e.type()));
    if (seen.containsAll(Behaviour.BUILT_INS)) {
      events.sort(Comparator.comparingLong(Event::ts).thenComparing(e -> e.type().id()));
      context.write(uid, new Text(Json.mapper().writeValueAsString(EventView.of(events))));
      context.getCounter(Counters.ACTIVE_USERS).increment(1);
    }
  }
}
