package org.casebook.core.cli;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a command that opens no HBase of its own: a client of a running server (the banknote device
 * agent). The options of {@link RuntimeOptions} (data directory, cluster, HBase settings, system
 * settings) do nothing there, so they are not offered on it, and given before it on the command
 * line they are refused ({@link ClientCommands}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface ClientCommand {}
