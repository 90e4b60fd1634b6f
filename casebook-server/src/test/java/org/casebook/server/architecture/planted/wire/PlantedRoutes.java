package org.casebook.server.architecture.planted.wire;

import com.fasterxml.jackson.databind.JsonNode;

/** The wire may read Jackson trees. */
public final class PlantedRoutes {
  public String row(JsonNode body) {
    return body.get("row").asText();
  }
}
