package org.casebook.tsdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.casebook.tsdb.QueryEngineAggregatorTest.T0;
import static org.casebook.tsdb.QueryEngineAggregatorTest.lp;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.casebook.core.InvalidInputException;
import org.junit.jupiter.api.Test;

/** Tag filters, the m= syntax, group-by and the tags of the answers. */
class QueryEngineFilterTest {

  static boolean json(String type, String filter, Map<String, String> tags) {
    return TagFilter.fromJson(type, "host", filter, false).matches(tags);
  }

  static final Map<String, String> WEB01 = Map.of("host", "Web01.lax");
  static final Map<String, String> NO_HOST = Map.of("dc", "lax");

  @Test
  void literalFilters() {
    assertThat(json("literal_or", "web01.lax|Web01.lax", WEB01)).isTrue();
    assertThat(json("literal_or", "web01.lax", WEB01)).isFalse();
    assertThat(json("literal_or", "Web01.lax", NO_HOST)).isFalse();
    assertThat(json("iliteral_or", "WEB01.LAX|x", WEB01)).isTrue();
    assertThat(json("not_literal_or", "Web01.lax", WEB01)).isFalse();
    assertThat(json("not_literal_or", "web01.lax", WEB01)).isTrue();
    assertThat(json("not_literal_or", "x", NO_HOST)).isTrue();
    assertThat(json("not_iliteral_or", "WEB01.LAX", WEB01)).isFalse();
    assertThat(json("not_iliteral_or", "web02.lax", WEB01)).isTrue();
  }

  @Test
  void wildcardRegexpAndNotKeyFilters() {
    assertThat(json("wildcard", "Web*", WEB01)).isTrue();
    assertThat(json("wildcard", "web*", WEB01)).isFalse();
    assertThat(json("wildcard", "*.lax", WEB01)).isTrue();
    assertThat(json("wildcard", "*.sjc", WEB01)).isFalse();
    assertThat(json("wildcard", "W*01*", WEB01)).isTrue();
    assertThat(json("wildcard", "*", WEB01)).isTrue();
    assertThat(json("wildcard", "*", NO_HOST)).isFalse();
    // Unanchored infix when the glob neither starts nor ends with '*', as in OpenTSDB.
    assertThat(json("wildcard", "eb*la", WEB01)).isTrue();
    assertThat(json("iwildcard", "WEB*", WEB01)).isTrue();
    assertThat(json("regexp", "^web\\d+", WEB01)).isFalse();
    assertThat(json("regexp", "eb\\d+", WEB01)).isTrue();
    assertThat(json("regexp", ".*", NO_HOST)).isFalse();
    assertThat(json("not_key", "", WEB01)).isFalse();
    assertThat(json("not_key", null, NO_HOST)).isTrue();
    // A '*' value in tags/m= braces is a wildcard, case-insensitive although typed "wildcard".
    TagFilter shorthand = TagFilter.fromTagValue("host", "web*", true, "m");
    assertThat(shorthand.type()).isEqualTo(TagFilterType.WILDCARD);
    assertThat(shorthand.matches(WEB01)).isTrue();
  }

  @Test
  void filterErrors() {
    assertBadFilter(
        () -> TagFilter.fromJson("Literal_Or", "host", "a", false),
        "Could not find a tag value filter of the type: Literal_Or");
    assertBadFilter(
        () -> TagFilter.fromJson("", "host", "a", false),
        "The filter type cannot be null or empty");
    assertBadFilter(
        () -> TagFilter.fromJson("regexp", "", "a", false), "The tagk cannot be null or empty");
    assertBadFilter(
        () -> TagFilter.fromJson("literal_or", "host", "|", false),
        "Filter must contain more than just a pipe");
    assertBadFilter(
        () -> TagFilter.fromJson("wildcard", "host", "web", false),
        "Filter must contain an asterisk");
    assertBadFilter(
        () -> TagFilter.fromJson("regexp", "host", null, false), "Filter cannot be null or empty");
    assertBadFilter(
        () -> TagFilter.fromJson("not_key", "host", "x", false),
        "The filter must be empty for the not_key filter");
    assertThatThrownBy(() -> TagFilter.fromJson("regexp", "host", "(", false))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Unclosed group");
  }

  static void assertBadFilter(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String message) {
    assertThatThrownBy(call)
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(message)
        .hasFieldOrPropertyWithValue("field", "filters");
  }

  @Test
  void legacyTagsMap() {
    List<TagFilter> filters =
        TagFilter.fromTags(Map.of("host", "*", "dc", "lax|sjc", "rack", "regexp(r[12])"));
    assertThat(filters).allMatch(TagFilter::groupBy).hasSize(3);
    assertThat(filters)
        .extracting(f -> f.tagKey() + "=" + f.type().filterName() + "(" + f.expression() + ")")
        .containsExactlyInAnyOrder(
            "host=wildcard(*)", "dc=literal_or(lax|sjc)", "rack=regexp(r[12])");
  }

  @Test
  void filterDescriptionsForTheConfigEndpoint() {
    assertThat(TagFilterType.configEntries())
        .extracting(TagFilterType.Description::name)
        .containsExactlyInAnyOrder(
            "literal_or",
            "iliteral_or",
            "not_literal_or",
            "not_iliteral_or",
            "wildcard",
            "iwildcard",
            "regexp");
    assertThat(TagFilterType.configMap().get("regexp").get("examples"))
        .isEqualTo(
            "host=regexp(.*)  {\"type\":\"regexp\",\"tagk\":\"host\",\"filter\":\".*\",\"groupBy\":false}");
    assertThat(TagFilterType.ENTRY_KEY_ORDER).containsExactlyInAnyOrder("description", "examples");
  }

  @Test
  void mQueryParsing() {
    SubQuery q =
        SubQuery.parseM(
            "sum:1m-avg-nan:rate{counter,1000,5}:sys.cpu{host=*,dc=lax}{rack=not_literal_or(r1)}");
    assertThat(q.aggregator().name()).isEqualTo("sum");
    assertThat(q.metric()).isEqualTo("sys.cpu");
    assertThat(q.downsample().orElseThrow().intervalMs()).isEqualTo(60_000);
    assertThat(q.fillPolicy()).isEqualTo(FillPolicy.NAN);
    assertThat(q.rate()).isTrue();
    assertThat(q.rateOptions()).isEqualTo(new RateOptions(true, 1000, 5, false));
    assertThat(q.filters())
        .extracting(f -> f.tagKey() + ":" + f.type().filterName() + ":" + f.groupBy())
        .containsExactly("rack:not_literal_or:false", "host:wildcard:true", "dc:literal_or:true");
    assertThat(q.explicitTags()).isFalse();

    SubQuery plain = SubQuery.parseM("avg:explicit_tags:rate:foo");
    assertThat(plain.explicitTags()).isTrue();
    assertThat(plain.rateOptions()).isEqualTo(RateOptions.DEFAULT);
    assertThat(plain.filters()).isEmpty();
    assertThat(SubQuery.parseM("sum:rate{dropcounter,,}:m").rateOptions())
        .isEqualTo(new RateOptions(true, Long.MAX_VALUE, 0, true));
    assertThat(SubQuery.parseM("sum:m{}").metric()).isEqualTo("m");
    assertThat(SubQuery.parseM("sum:whatever:m").downsample()).isEmpty();
    // A filter in both braces: the group-by braces make the existing filter a group-by.
    SubQuery both = SubQuery.parseM("sum:m{host=a}{host=a}");
    assertThat(both.filters()).hasSize(1);
    assertThat(both.filters().get(0).groupBy()).isTrue();
    SubQuery onlyFilters = SubQuery.parseM("sum:m{}{host=Literal_Or(a|b)}");
    assertThat(onlyFilters.filters().get(0).groupBy()).isFalse();
    assertThat(onlyFilters.filters().get(0).literals()).containsExactlyInAnyOrder("a", "b");
  }

  @Test
  void badMQueries() {
    assertBadM("", "The query string was empty");
    assertBadM("sum", "Invalid parameter m=sum (not enough :-separated parts)");
    assertBadM("sum:a:b:c:d:m", "Invalid parameter m=sum:a:b:c:d:m (too many :-separated parts)");
    assertBadM("foo:m", "No such aggregation function: foo");
    assertBadM("sum:", "Metric cannot be null or empty");
    assertBadM("sum:{host=a}", "Missing the metric or tsuids, provide at least one");
    assertBadM("sum:m{host=a", "Missing '}' at the end of: m{host=a");
    assertBadM("sum:m{host}", "When parsing tag 'host': invalid tag: host");
    assertBadM("sum:m{host=a,}", "When parsing tag '': invalid tag: ");
    assertBadM("sum:m{}{host=a=b}", "When parsing filter 'host=a=b': invalid tag: host=a=b");
    assertBadM("sum:m{host=foo(a)}", "Could not find a tag value filter of the type: foo");
    assertBadM("sum:m{host=regexp(a}", "Filter must end with a ')': regexp(a");
    assertBadM("sum:1m-bar:m", "No such downsampling function: bar");
    assertBadM("sum:rate{counter,x}:m", "Max value of counter was not a number, received 'x'");
    assertBadM("sum:rate{counter,1,y}:m", "Reset value of counter was not a number, received 'y'");
    assertBadM("sum:rate{:m", "Invalid rate options specification: rate{");
  }

  static void assertBadM(String m, String message) {
    assertThatThrownBy(() -> SubQuery.parseM(m))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(message)
        .hasFieldOrPropertyWithValue("field", "m");
  }

  static Series s(Map<String, String> tags, long value) {
    return new Series("m", tags, List.of(lp(0, value)));
  }

  static final List<Series> FLEET =
      List.of(
          s(Map.of("host", "a", "dc", "x"), 1),
          s(Map.of("host", "b", "dc", "x"), 2),
          s(Map.of("host", "c"), 4),
          s(Map.of("host", "d", "dc", "y", "rack", "r1"), 8));

  static List<QueryResult> run(String m, TagOrder order) {
    return QueryEngine.run(SubQuery.parseM(m), T0, T0 + 60_000, FLEET, order);
  }

  static String describe(QueryResult r) {
    return r.tags() + " " + r.aggregateTags() + " " + r.points().get(0).longValue();
  }

  @Test
  void groupByAndTheResultingTags() {
    // No group-by: one result; dc kept? no, x and y differ; rack only on d stays a tag.
    assertThat(run("sum:m", TagOrder.BY_NAME))
        .extracting(QueryEngineFilterTest::describe)
        .containsExactly("{rack=r1} [dc, host] 15");
    // A key missing from some series does not make it aggregated (OpenTSDB computeTags).
    assertThat(run("sum:m{}{dc=x}", TagOrder.BY_NAME))
        .extracting(QueryEngineFilterTest::describe)
        .containsExactly("{dc=x} [host] 3");
    // Group by dc: the series without dc cannot match; groups in value order.
    assertThat(run("sum:m{dc=*}", TagOrder.BY_NAME))
        .extracting(QueryEngineFilterTest::describe)
        .containsExactly("{dc=x} [host] 3", "{dc=y, host=d, rack=r1} [] 8");
    // Group order follows the value ids the store gives, here reversed.
    TagOrder reversed =
        new TagOrder(Comparator.naturalOrder(), Comparator.<String>naturalOrder().reversed());
    assertThat(run("sum:m{host=*}", reversed))
        .extracting(r -> r.tags().get("host"))
        .containsExactly("d", "c", "b", "a");
    // Group by a literal list.
    assertThat(run("sum:m{host=a|d}", TagOrder.BY_NAME))
        .extracting(QueryEngineFilterTest::describe)
        .containsExactly("{dc=x, host=a} [] 1", "{dc=y, host=d, rack=r1} [] 8");
    // aggregateTags come in key order.
    TagOrder hostFirst =
        new TagOrder(
            Comparator.comparing((String k) -> !k.equals("host")).thenComparing(k -> k),
            Comparator.naturalOrder());
    assertThat(run("sum:m", hostFirst).get(0).aggregateTags()).containsExactly("host", "dc");
  }

  @Test
  void seriesSelection() {
    // not_literal_or still needs the key (OpenTSDB's row key regex requires every filtered key).
    assertThat(run("sum:m{}{dc=not_literal_or(y)}", TagOrder.BY_NAME))
        .extracting(QueryEngineFilterTest::describe)
        .containsExactly("{dc=x} [host] 3");
    // Two literal_or filters on one key are ORed by the row key scan.
    assertThat(run("sum:m{}{host=a,host=b}", TagOrder.BY_NAME))
        .extracting(r -> r.points().get(0).longValue())
        .containsExactly(3L);
    // iliteral_or is a post-scan test, so two of them are ANDed.
    assertThat(run("sum:m{}{host=iliteral_or(a),host=iliteral_or(b)}", TagOrder.BY_NAME)).isEmpty();
    // explicit_tags: only series whose keys are exactly the filtered ones.
    assertThat(run("sum:explicit_tags:m{host=*}", TagOrder.BY_NAME))
        .extracting(QueryEngineFilterTest::describe)
        .containsExactly("{host=c} [] 4");
    assertThat(run("sum:explicit_tags:m", TagOrder.BY_NAME)).hasSize(1);
    // not_key (accepted by Casebook only): series without rack.
    assertThat(run("sum:m{}{rack=not_key()}", TagOrder.BY_NAME))
        .extracting(r -> r.points().get(0).longValue())
        .containsExactly(7L);
    // Filters on other metrics' series never match.
    assertThat(run("sum:other", TagOrder.BY_NAME)).isEmpty();
  }

  @Test
  void literalsTheStoreMustResolve() {
    SubQuery q = SubQuery.parseM("sum:m{host=a|b,dc=*}{rack=iliteral_or(R1)}");
    assertThat(q.literalTagValues()).containsExactlyInAnyOrder("a", "b");
    assertThat(q.filterTagKeys()).containsExactlyInAnyOrder("host", "dc", "rack");
  }
}
