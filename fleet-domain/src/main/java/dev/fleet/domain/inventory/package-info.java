/**
 * The host inventory's application service ({@code fleet host}, the contract, §14): it composes the
 * clients' configurations and the process table into a snapshot and classifies it. Apart from
 * {@code dev.fleet.domain.host}, which the ports name, so that no package cycle joins them.
 */
package dev.fleet.domain.inventory;
