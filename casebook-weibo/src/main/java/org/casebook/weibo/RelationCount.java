package org.casebook.weibo;

/**
 * A recount of one kind of a user's relation rows.
 *
 * @param following how many are in state following
 * @param newestVersion the newest change among all of them, following or not (-1 if none carries
 *     one)
 */
record RelationCount(long following, long newestVersion) {}
