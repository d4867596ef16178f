// The embedded chain's id, in a module of its own: reading it must not load the devchain code.
export const DEVCHAIN_ID = 31337;
