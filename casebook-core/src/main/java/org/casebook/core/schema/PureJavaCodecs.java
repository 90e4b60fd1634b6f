package org.casebook.core.schema;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes LZ4, Snappy and ZSTD work without a native library, with HBase's own pure-Java codecs
 * ({@code hbase-compression-aircompressor}). They write the same block format as Hadoop's native
 * codecs, so files written here are read by a cluster that uses those, and the reverse.
 *
 * <p>HBase resolves a codec once per JVM, from a configuration it builds itself out of the
 * classpath's {@code hbase-site.xml}, not from the connection's. So installing means two things:
 * the codec class goes into {@code conf} (where the embedded region server, MapReduce tasks and
 * {@code CompressionTest} see it) unless an operator's site file already names one, and the
 * algorithm is reloaded with it. A cluster's region servers need the same jar and the same three
 * properties in their own {@code hbase-site.xml}; the server README says how.
 */
public final class PureJavaCodecs {
  private static final Logger LOG = LoggerFactory.getLogger(PureJavaCodecs.class);
  private static final String PACKAGE = "org.apache.hadoop.hbase.io.compress.aircompressor.";

  /** The algorithms this class provides, with HBase's configuration key for each one's codec. */
  static final Map<Compression.Algorithm, String> KEYS =
      Map.of(
          Compression.Algorithm.LZ4, "hbase.io.compress.lz4.codec",
          Compression.Algorithm.SNAPPY, "hbase.io.compress.snappy.codec",
          Compression.Algorithm.ZSTD, "hbase.io.compress.zstd.codec");

  private static final Map<Compression.Algorithm, String> CLASSES =
      Map.of(
          Compression.Algorithm.LZ4, PACKAGE + "Lz4Codec",
          Compression.Algorithm.SNAPPY, PACKAGE + "SnappyCodec",
          Compression.Algorithm.ZSTD, PACKAGE + "ZstdCodec");

  /** What each algorithm was last reloaded with in this JVM. */
  private static final Map<Compression.Algorithm, String> LOADED = new ConcurrentHashMap<>();

  private PureJavaCodecs() {}

  private static boolean loadable(String className) {
    try {
      Class.forName(className, false, PureJavaCodecs.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * Puts the pure-Java codec of each algorithm into {@code conf} where the configuration names
   * none, and makes this JVM's HBase use what {@code conf} names.
   */
  public static synchronized void install(Configuration conf) {
    for (Map.Entry<Compression.Algorithm, String> e : KEYS.entrySet()) {
      Compression.Algorithm algorithm = e.getKey();
      String key = e.getValue();
      if (conf.get(key) == null && loadable(CLASSES.get(algorithm))) {
        conf.set(key, CLASSES.get(algorithm));
      }
      String wanted = conf.get(key);
      // A JVM without the jar (a task of a job shipped without it, `hadoop jar` on a stock
      // classpath) keeps HBase's own choice.
      if (wanted != null && !wanted.equals(LOADED.get(algorithm)) && loadable(wanted)) {
        algorithm.reload(conf);
        LOADED.put(algorithm, wanted);
        LOG.debug("compression {} uses {}", algorithm, wanted);
      }
    }
  }
}
