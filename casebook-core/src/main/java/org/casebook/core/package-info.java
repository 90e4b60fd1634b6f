/**
 * Casebook's public core: the HBase runtime, the system plug-in interface and the error types.
 * Sub-packages: {@code key} (row-key toolkit), {@code schema} (schema as code), {@code hotspot}
 * (write-spread report), {@code http} and {@code cli} (adapter helpers).
 */
package org.casebook.core;
