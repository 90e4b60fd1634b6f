package org.casebook.core.settings;

/** Where an effective setting came from, weakest first: a later source wins over an earlier one. */
public enum SettingSource {
  DEFAULT("default"),
  FILE("file"),
  ENVIRONMENT("environment"),
  COMMAND_LINE("--set");

  private final String label;

  SettingSource(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
