/**
 * Canceling an UPCOMING staked goal forfeits nothing: its week has not begun, no hold has been placed (holds go on
 * at activation) and nothing was at risk yet; canceling an ACTIVE staked goal forfeits the stake (§4). One constant
 * so the product can flip it.
 */
export const FORFEIT_ON_UPCOMING_CANCEL = false;
