/** The public API version this build serves (spec 0.6.0). */
export const VERSION = '0.6.0';
