package org.casebook.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.List;
import java.util.Objects;
import java.util.function.DoubleFunction;
import org.casebook.core.LocalFileException;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** A line chart written as PNG with JFreeChart, for benchmark figures next to their JSON. */
final class LineChartPng {
  /** One line: a name and its (x, y) points. */
  record Series(String name, List<double[]> points) {
    Series {
      Objects.requireNonNull(name, "name is null");
      points = List.copyOf(points);
    }
  }

  private LineChartPng() {}

  static void write(Path png, String title, String xLabel, String yLabel, List<Series> series) {
    write(png, title, xLabel, yLabel, series, null);
  }

  /**
   * As above with both axes logarithmic (every value must be positive), the x axis's ticks labelled
   * by {@code xTicks} (e.g. 100M for 100,000,000); {@code null} keeps both axes linear.
   */
  static void write(
      Path png,
      String title,
      String xLabel,
      String yLabel,
      List<Series> series,
      DoubleFunction<String> xTicks) {
    // Benchmarks run on servers without a display.
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
    XYSeriesCollection data = new XYSeriesCollection();
    for (Series s : series) {
      XYSeries line = new XYSeries(s.name());
      for (double[] p : s.points()) {
        line.add(p[0], p[1]);
      }
      data.addSeries(line);
    }
    JFreeChart chart =
        ChartFactory.createXYLineChart(
            title, xLabel, yLabel, data, PlotOrientation.VERTICAL, true, false, false);
    if (xTicks != null) {
      // Plain numbers at the ticks (1M rather than 10^6.0).
      LogAxis x = new LogAxis(xLabel);
      x.setNumberFormatOverride(new TickLabels(xTicks));
      LogAxis y = new LogAxis(yLabel);
      y.setNumberFormatOverride(new java.text.DecimalFormat("#,##0.##"));
      chart.getXYPlot().setDomainAxis(x);
      chart.getXYPlot().setRangeAxis(y);
    }
    try {
      ChartUtils.saveChartAsPNG(png.toFile(), chart, 900, 560);
    } catch (IOException e) {
      throw LocalFileException.of("write the chart", png, e);
    }
  }

  /** An axis's tick labels from a function; charts never parse them back. */
  private static final class TickLabels extends NumberFormat {
    private static final long serialVersionUID = 1L;

    @SuppressWarnings("serial") // a chart's formatter is never serialised
    private final DoubleFunction<String> labels;

    TickLabels(DoubleFunction<String> labels) {
      this.labels = labels;
    }

    @Override
    public StringBuffer format(double number, StringBuffer to, FieldPosition pos) {
      return to.append(labels.apply(number));
    }

    @Override
    public StringBuffer format(long number, StringBuffer to, FieldPosition pos) {
      return to.append(labels.apply(number));
    }

    @Override
    public Number parse(String source, ParsePosition pos) {
      return null; // NumberFormat's "could not parse": the position stays where it was
    }
  }
}
