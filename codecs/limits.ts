/**
 * The bounds of Kafka's fixed-size signed integers, as the wire carries them. Options, offsets files and
 * sequence numbers that end up in an int16 / int32 field are checked against these, so one constant says it.
 */

export const INT16_MAX = 0x7fff;
export const INT32_MAX = 0x7fff_ffff;
export const INT64_MAX = 0x7fff_ffff_ffff_ffffn;
