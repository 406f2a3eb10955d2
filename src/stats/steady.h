/*
 * steady.h — the --steady-state rule: has a rate stopped trending?
 *
 * Given the last n samples (t[i], y[i]) of a rate (ops/s at the end time
 * of each interval), fit y = a + b t by least squares and compare the
 * change the trend predicts across the window, |b| * (t[n-1] - t[0]), with
 * the window's mean rate.  The rate is steady when that relative change is
 * at most pct percent.  Pure computation.
 */
#ifndef FSGAUGE_STEADY_H
#define FSGAUGE_STEADY_H

#include <stddef.h>

/* 1 when steady, 0 when not (or n < 2, or the mean rate is 0); the
 * relative change in percent goes to *change_pct when not NULL (NAN when
 * it cannot be computed). */
int steady_state_reached(const double *t, const double *y, size_t n, double pct,
			 double *change_pct);

#endif
