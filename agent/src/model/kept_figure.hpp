#pragma once

namespace ibkit {

// A pair's figure (a latency in us, a bandwidth in Gb/s) as a report keeps and shows it: four
// significant digits, no finer than a thousandth and no coarser than a unit (1.582 us, 95.11
// Gb/s, 392.5 Gb/s, 12346 us). Finer than a measurement repeats (a fleet's healthy pairs spread
// by a percent or more; perftest prints two decimals), the same when rounded again (a report
// read and written again is unchanged), and one digit fewer than thousandths on a 100 Gb/s
// link: a megabyte at 1,024 nodes. A value that is not finite, or above 1e12 (a corrupt
// report), is returned as it is.
double kept_figure(double value);

}  // namespace ibkit
