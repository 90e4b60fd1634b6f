package org.casebook.trails;

/**
 * How a trail query reads HBase. GETS is seed 000's plan: enumerate every (user, day, behaviour)
 * row and fetch them in batched Gets, only the requested fields' columns. SCAN reads each user's
 * contiguous day range with one bounded Scan. AUTO scans when every behaviour is wanted (nothing to
 * skip) and uses Gets otherwise. {@link TrailPlanner} turns a query and a mode into a {@link
 * TrailPlan}.
 */
public enum PlanMode {
  AUTO,
  GETS,
  SCAN
}
