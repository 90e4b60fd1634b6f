package org.casebook.weibo.wire;

import java.util.List;
import org.casebook.core.page.Page;

/**
 * A page of user ids as the REST API and the CLI print it: {@code {"users":[…],"next":"…"|null}}.
 */
public record UsersPage(List<String> users, String next) {
  public UsersPage {
    users = List.copyOf(users);
  }

  public static UsersPage of(Page<String> page) {
    return new UsersPage(page.items(), page.nextOrNull());
  }
}
