/**
 * `DeliverySettings.leaseSeconds` when not given: read by delivery and by the configuration check,
 * which compares the send time limit with it. Kept out of the ports, whose modules hold types only.
 */
export const defaultLeaseSeconds = 300;
