package org.casebook.archive;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import javax.imageio.ImageIO;

/** A small line chart written as PNG with Java2D (headless), for the experiment's figure. */
final class LineChart {
  /** One line: a name and its (x, y) points in x order. */
  record Series(String name, List<double[]> points) {
    Series {
      Objects.requireNonNull(name, "name is null");
      points = List.copyOf(points);
    }
  }

  private static final Color[] COLORS = {new Color(0xD6, 0x27, 0x28), new Color(0xFF, 0x7F, 0x0E), new Color(0x1F, 0x77, 0xB4),
      new Color(0x2C, 0xA0, 0x2C)};

  private LineChart() {}

  static void write(Path png, String title, String xLabel, String yLabel, List<Series> series) throws IOException {
    System.setProperty("java.awt.headless", "true");
    int w = 900;
    int h = 560;
    int left = 80;
    int right = 280;
    int top = 50;
    int bottom = 60;
    double maxX = 0;
    double maxY = 0;
    for (Series s : series) {
      for (double[] p : s.points()) {
        maxX = Math.max(maxX, p[0]);
        maxY = Math.max(maxY, p[1]);
      }
    }
    maxX = niceCeiling(maxX);
    maxY = niceCeiling(maxY);
    BufferedImage image = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, w, h);
      g.setColor(Color.BLACK);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
      g.drawString(title, left, 30);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
      FontMetrics fm = g.getFontMetrics();
      int plotW = w - left - right;
      int plotH = h - top - bottom;
      for (int i = 0; i <= 5; i++) {
        int y = top + plotH - plotH * i / 5;
        int x = left + plotW * i / 5;
        g.setColor(new Color(0xE0, 0xE0, 0xE0));
        g.drawLine(left, y, left + plotW, y);
        g.drawLine(x, top, x, top + plotH);
        g.setColor(Color.DARK_GRAY);
        String yl = format(maxY * i / 5);
        g.drawString(yl, left - 8 - fm.stringWidth(yl), y + 4);
        String xl = format(maxX * i / 5);
        g.drawString(xl, x - fm.stringWidth(xl) / 2, top + plotH + 18);
      }
      g.setColor(Color.BLACK);
      g.drawRect(left, top, plotW, plotH);
      g.drawString(xLabel, left + plotW / 2 - fm.stringWidth(xLabel) / 2, h - 18);
      Graphics2D rotated = (Graphics2D) g.create();
      rotated.rotate(-Math.PI / 2);
      rotated.drawString(yLabel, -(top + plotH / 2 + fm.stringWidth(yLabel) / 2), 22);
      rotated.dispose();
      for (int i = 0; i < series.size(); i++) {
        Series s = series.get(i);
        g.setColor(COLORS[i % COLORS.length]);
        g.setStroke(new BasicStroke(2.5f));
        int px = -1;
        int py = -1;
        for (double[] p : s.points()) {
          int x = left + (int) Math.round(plotW * p[0] / maxX);
          int y = top + plotH - (int) Math.round(plotH * p[1] / maxY);
          if (px >= 0) {
            g.drawLine(px, py, x, y);
          }
          g.fillOval(x - 4, y - 4, 8, 8);
          px = x;
          py = y;
        }
        int ly = top + 20 + i * 22;
        g.drawLine(left + plotW + 15, ly - 4, left + plotW + 40, ly - 4);
        g.setColor(Color.BLACK);
        g.drawString(s.name(), left + plotW + 46, ly);
      }
    } finally {
      g.dispose();
    }
    if (!ImageIO.write(image, "png", png.toFile())) {
      throw new IOException("no PNG writer in this JVM");
    }
  }

  private static double niceCeiling(double v) {
    if (v <= 0) {
      return 1;
    }
    double magnitude = Math.pow(10, Math.floor(Math.log10(v)));
    for (double step : new double[] {1, 2, 2.5, 5, 10}) {
      if (step * magnitude >= v) {
        return step * magnitude;
      }
    }
    return 10 * magnitude;
  }

  private static String format(double v) {
    return v == Math.rint(v) ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%,.1f", v);
  }
}
