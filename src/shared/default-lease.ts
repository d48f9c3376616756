/**
 * `DeliverySettings.leaseSeconds` when not given: read by delivery and by the configuration check,
 * which compares the send time limit with it. Kept out of the ports, whose modules hold types only.
 */
export const defaultLeaseSeconds = 300;

/**
 * The longest time any delivery setting may give, in seconds (a year): a backoff or lease beyond
 * it puts times past year 9999 that no store can hold, and every mail's write or failure would
 * fail with it. The configuration check refuses more; delivery keeps the default instead.
 */
export const MAX_DELIVERY_SECONDS = 31_536_000;
