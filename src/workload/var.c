/*
 * var.c — variables and attribute values: lookup, the wl_val_* readers,
 * number syntax and canonical formatting; see workload.h.
 */
#include "workload/internal.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/size.h"
#include "util/util.h"

struct wl_var *workload_var(const struct workload *w, const char *name)
{
	for (size_t i = 0; i < w->nvars; i++)
		if (strcmp(w->vars[i]->name, name) == 0)
			return w->vars[i];
	return NULL;
}

struct wl_var *wl_var_get(struct workload *w, const char *name)
{
	struct wl_var *v = workload_var(w, name);

	if (v)
		return v;
	v = xcalloc(1, sizeof(*v));
	v->name = xstrdup(name);
	w->vars = xrealloc(w->vars, (w->nvars + 1) * sizeof(*w->vars));
	w->vars[w->nvars++] = v;
	return v;
}

void wl_var_clear(struct wl_var *v)
{
	free(v->s);
	v->s = NULL;
	v->i = 0;
	v->d = 0;
	v->rv = NULL; /* random variables are owned by the workload's list */
	v->kind = VAR_UNSET;
}

void wl_val_clear(struct wl_val *v)
{
	free(v->s);
	memset(v, 0, sizeof(*v));
}

void wl_val_copy(struct wl_val *dst, const struct wl_val *src)
{
	*dst = *src;
	if (src->s)
		dst->s = xstrdup(src->s);
}

int wl_num_parse(const char *s, int64_t *iv, double *dv)
{
	size_t nd = strspn(s, "0123456789");
	const char *q = s + nd;
	uint64_t u;
	int rc;

	if (!isdigit((unsigned char)*s) && !(*s == '.' && isdigit((unsigned char)s[1])))
		return -EINVAL;
	if (!*q) {
		rc = num_parse_u64(s, &u);
		if (rc < 0)
			return rc;
		if (u > INT64_MAX)
			return -ERANGE;
		*iv = (int64_t)u;
		return NUM_INT;
	}
	if (*q == '.') {
		q++;
		q += strspn(q, "0123456789");
	}
	if (nd && *q && strchr("kKmMgGtT", *q)) {
		const char *r = q + 1;

		if (*r == 'b' || *r == 'B')
			r++;
		if (*r)
			return -EINVAL;
		rc = size_parse(s, &u);
		if (rc < 0)
			return rc;
		if (u > INT64_MAX)
			return -ERANGE;
		*iv = (int64_t)u;
		return NUM_INT;
	}
	/* strtod would take hex and "inf"; the language has neither. */
	if (strpbrk(s, "xXpPnN"))
		return -EINVAL;
	if (num_parse_double(s, dv) < 0)
		return -EINVAL;
	return NUM_DBL;
}

/* --- readers ------------------------------------------------------------ */

static int64_t dbl_to_int(double d)
{
	if (!(d == d))
		return 0;
	if (d >= 9.2e18)
		return INT64_MAX;
	if (d <= -9.2e18)
		return INT64_MIN;
	return (int64_t)llround(d);
}

/* Random variables: a fresh sample with an rng, the mean without one. */
static double rv_read(const struct randvar *rv, struct rng *r)
{
	return r ? randvar_sample(rv, r) : randvar_mean(rv);
}

int64_t wl_val_int(const struct wl_val *v, struct rng *r, int64_t dflt)
{
	const struct wl_var *x;

	switch (v->kind) {
	case WLV_INT:
	case WLV_BOOL:
		return v->i;
	case WLV_DBL:
		return dbl_to_int(v->d);
	case WLV_RAND:
		return dbl_to_int(rv_read(v->rv, r));
	case WLV_VAR:
		x = v->var;
		switch (x->kind) {
		case VAR_INT:
		case VAR_BOOL:
			return x->i;
		case VAR_DBL:
			return dbl_to_int(x->d);
		case VAR_RAND:
			return dbl_to_int(rv_read(x->rv, r));
		default:
			return dflt;
		}
	default:
		return dflt;
	}
}

double wl_val_double(const struct wl_val *v, struct rng *r, double dflt)
{
	const struct wl_var *x;

	switch (v->kind) {
	case WLV_INT:
	case WLV_BOOL:
		return (double)v->i;
	case WLV_DBL:
		return v->d;
	case WLV_RAND:
		return rv_read(v->rv, r);
	case WLV_VAR:
		x = v->var;
		switch (x->kind) {
		case VAR_INT:
		case VAR_BOOL:
			return (double)x->i;
		case VAR_DBL:
			return x->d;
		case VAR_RAND:
			return rv_read(x->rv, r);
		default:
			return dflt;
		}
	default:
		return dflt;
	}
}

static int str_bool(const char *s, int dflt)
{
	if (strcmp(s, "true") == 0)
		return 1;
	if (strcmp(s, "false") == 0)
		return 0;
	return dflt;
}

int wl_val_bool(const struct wl_val *v, int dflt)
{
	const struct wl_var *x;

	switch (v->kind) {
	case WLV_INT:
	case WLV_BOOL:
		return v->i != 0;
	case WLV_DBL:
		return v->d != 0;
	case WLV_STR:
		return str_bool(v->s, dflt);
	case WLV_VAR:
		x = v->var;
		switch (x->kind) {
		case VAR_INT:
		case VAR_BOOL:
			return x->i != 0;
		case VAR_DBL:
			return x->d != 0;
		case VAR_STR:
			return str_bool(x->s, dflt);
		default:
			return dflt;
		}
	default:
		return dflt;
	}
}

const char *wl_val_str(const struct wl_val *v, const char *dflt)
{
	if (v->kind == WLV_STR)
		return v->s;
	if (v->kind == WLV_VAR && v->var->kind == VAR_STR)
		return v->var->s;
	return dflt;
}

int wl_val_isset(const struct wl_val *v)
{
	if (v->kind == WLV_NONE)
		return 0;
	if (v->kind == WLV_VAR)
		return v->var->kind != VAR_UNSET;
	return 1;
}

int wl_val_israndom(const struct wl_val *v)
{
	return v->kind == WLV_RAND || (v->kind == WLV_VAR && v->var->kind == VAR_RAND);
}

/* --- formatting ----------------------------------------------------------- */

void wl_fmt_double(struct sbuf *sb, double d)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.15g", d);
	/* Keep doubles recognisable as such: 2.0 prints "2.0", not "2". */
	if (isfinite(d) && !strpbrk(buf, ".e"))
		strcat(buf, ".0");
	sbuf_add(sb, buf);
}

void wl_fmt_string(struct sbuf *sb, const char *s)
{
	sbuf_addc(sb, '"');
	for (; *s; s++) {
		switch (*s) {
		case '"':
			sbuf_add(sb, "\\\"");
			break;
		case '\\':
			sbuf_add(sb, "\\\\");
			break;
		case '\n':
			sbuf_add(sb, "\\n");
			break;
		case '\t':
			sbuf_add(sb, "\\t");
			break;
		case '$':
			sbuf_add(sb, "\\$");
			break;
		default:
			sbuf_addc(sb, *s);
		}
	}
	sbuf_addc(sb, '"');
}

void wl_fmt_var_value(struct sbuf *sb, const struct wl_var *v)
{
	switch (v->kind) {
	case VAR_UNSET:
		sbuf_add(sb, "<unset>");
		break;
	case VAR_INT:
		sbuf_addf(sb, "%" PRId64, v->i);
		break;
	case VAR_DBL:
		wl_fmt_double(sb, v->d);
		break;
	case VAR_BOOL:
		sbuf_add(sb, v->i ? "true" : "false");
		break;
	case VAR_STR:
		wl_fmt_string(sb, v->s);
		break;
	case VAR_RAND:
		randvar_format(sb, v->rv);
		break;
	}
}

void wl_fmt_val(struct sbuf *sb, const struct wl_val *v)
{
	switch (v->kind) {
	case WLV_NONE:
		sbuf_add(sb, "<none>");
		break;
	case WLV_INT:
		sbuf_addf(sb, "%" PRId64, v->i);
		break;
	case WLV_DBL:
		wl_fmt_double(sb, v->d);
		break;
	case WLV_BOOL:
		sbuf_add(sb, v->i ? "true" : "false");
		break;
	case WLV_STR:
		wl_fmt_string(sb, v->s);
		break;
	case WLV_VAR:
		sbuf_addf(sb, "$%s=", v->var->name);
		wl_fmt_var_value(sb, v->var);
		break;
	case WLV_RAND:
		randvar_format(sb, v->rv);
		break;
	}
}
