/** Wall clocks of IANA zones, shared with the server (which bounds day filters with them). */
export { instantOf, wallClock, wallClockOrEmpty } from '@csms/contract';
