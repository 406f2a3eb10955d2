/* steady.c — the --steady-state rule; see steady.h. */
#include "stats/steady.h"

#include <math.h>

int steady_state_reached(const double *t, const double *y, size_t n, double pct,
			 double *change_pct)
{
	double mt = 0, my = 0, sxy = 0, sxx = 0, b, change;

	if (change_pct)
		*change_pct = NAN;
	if (n < 2)
		return 0;
	for (size_t i = 0; i < n; i++) {
		mt += t[i];
		my += y[i];
	}
	mt /= (double)n;
	my /= (double)n;
	for (size_t i = 0; i < n; i++) {
		sxy += (t[i] - mt) * (y[i] - my);
		sxx += (t[i] - mt) * (t[i] - mt);
	}
	if (!(sxx > 0) || !(my > 0))
		return 0;
	b = sxy / sxx;
	change = fabs(b) * (t[n - 1] - t[0]) / my * 100.0;
	if (change_pct)
		*change_pct = change;
	return change <= pct;
}
