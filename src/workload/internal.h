/*
 * internal.h — helpers shared by the files of workload/ (not part of the
 * model's interface: front ends and the runner use workload.h only).
 */
#ifndef FSGAUGE_WORKLOAD_INTERNAL_H
#define FSGAUGE_WORKLOAD_INTERNAL_H

#include <stdint.h>

#include "workload/sbuf.h"
#include "workload/workload.h"

/* var.c */

/* The variable `name`, added (VAR_UNSET) when absent. */
struct wl_var *wl_var_get(struct workload *w, const char *name);
/* Back to VAR_UNSET, freeing a string value. */
void wl_var_clear(struct wl_var *v);
void wl_val_clear(struct wl_val *v);
/* Deep copy (strings duplicated; variables and random variables shared). */
void wl_val_copy(struct wl_val *dst, const struct wl_val *src);

/*
 * A number as the language writes it: "100", "16k", "1.5g", "2.5", "1e3".
 * Integers with an optional k, m, g, t suffix (binary, optional trailing b)
 * are NUM_INT; numbers with a fraction or exponent and no suffix are
 * NUM_DBL.  Returns NUM_INT or NUM_DBL, -EINVAL for anything else and
 * -ERANGE for integers beyond int64.
 */
enum { NUM_INT = 1, NUM_DBL = 2 };
int wl_num_parse(const char *s, int64_t *iv, double *dv);

/* Canonical text forms used by the dump and by messages. */
void wl_fmt_double(struct sbuf *sb, double d);
void wl_fmt_string(struct sbuf *sb, const char *s); /* quoted, escaped */
void wl_fmt_var_value(struct sbuf *sb, const struct wl_var *v);
void wl_fmt_val(struct sbuf *sb, const struct wl_val *v);

/* randvar.c */

/* "randvar(type=gamma,min=1024,mean=5632,gamma=1.5)" or "cvar(...)". */
void randvar_format(struct sbuf *sb, const struct randvar *rv);
void randvar_free(struct randvar *rv);

#endif
