/* svg.c — inline SVG bar and line charts; see svg.h. */
#include "output/svg.h"

#include <math.h>
#include <string.h>

#include "util/util.h"

#define W 440
#define H 280
#define ML 72 /* room for y tick labels and the rotated y-axis label */
#define MR 14
#define MT 34 /* the title */
#define MB 58 /* x tick labels and the x-axis label */
#define PW (W - ML - MR)
#define PH (H - MT - MB)
#define LEGEND_ROW 16
#define LEGEND_COLS 3

/* Okabe-Ito colours (distinguishable with the common colour-vision
 * deficiencies), each with its own dash pattern for grey printouts. */
static const char *const colors[SVG_STYLES] = { "#0072b2", "#e69f00", "#009e73", "#d55e00",
						"#cc79a7", "#56b4e9", "#7f7f7f", "#000000" };
static const char *const dashes[SVG_STYLES] = { "",    "7 3", "2 2",     "9 3 2 3",
						"4 4", "1 3", "12 4 2 4", "6 2 2 2 2 2" };

void svg_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			/* control characters are not allowed in XML 1.0 */
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
				fputc('?', f);
			else
				fputc(*s, f);
		}
	}
}

const char *svg_color(int style)
{
	return colors[(style % SVG_STYLES + SVG_STYLES) % SVG_STYLES];
}

static const char *dash(int style)
{
	return dashes[(style % SVG_STYLES + SVG_STYLES) % SVG_STYLES];
}

/* A round step for about `ticks` intervals over `range`: 1, 2 or 5 x 10^k. */
static double nice_step(double range, int ticks)
{
	double raw = range / ticks, mag, norm;

	if (!(raw > 0) || !isfinite(raw))
		return 1;
	mag = pow(10, floor(log10(raw)));
	norm = raw / mag;
	return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

static void fmt_tick(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (a < 1e-12)
		snprintf(buf, len, "0");
	else if (a >= 1e9)
		snprintf(buf, len, "%gG", v / 1e9);
	else if (a >= 1e6)
		snprintf(buf, len, "%gM", v / 1e6);
	else if (a >= 1e4)
		snprintf(buf, len, "%gk", v / 1e3);
	else
		snprintf(buf, len, "%g", v);
}

static void fmt_value(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (a >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

static void open_chart(FILE *f, const struct svg_chart *c, int width, int height, int id)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" "
		   "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-labelledby=\"ct%d cd%d\" "
		   "data-chart=\"",
		width, height, width, height, id, id);
	svg_escape(f, c->kind);
	fputc('"', f);
	if (c->figure) {
		fputs(" data-figure=\"", f);
		svg_escape(f, c->figure);
		fputc('"', f);
	}
	fprintf(f, ">\n<title id=\"ct%d\">", id);
	svg_escape(f, c->title);
	fprintf(f, "</title>\n<desc id=\"cd%d\">", id);
	svg_escape(f, c->desc ? c->desc : c->title);
	fputs("</desc>\n", f);
	fprintf(f, "<text class=\"ctitle\" x=\"%d\" y=\"20\" text-anchor=\"middle\">", width / 2);
	svg_escape(f, c->title);
	fputs("</text>\n", f);
}

/* extra: pixels added under the plot (a bar chart's third label line) */
static void axis_labels(FILE *f, const struct svg_chart *c, int extra)
{
	fprintf(f, "<text class=\"alabel\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", ML + PW / 2,
		MT + PH + 48 + extra);
	svg_escape(f, c->xlabel);
	fprintf(f, "</text>\n<text class=\"alabel\" transform=\"translate(16,%d) rotate(-90)\" "
		   "text-anchor=\"middle\">",
		MT + PH / 2);
	svg_escape(f, c->ylabel);
	fputs("</text>\n", f);
}

/* A horizontal grid line at y, labelled with the value v. */
static void y_grid_line(FILE *f, double y, double v)
{
	char buf[32];

	fmt_tick(buf, sizeof(buf), v);
	fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", ML, y,
		ML + PW, y);
	fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
		ML - 5, y + 4, buf);
}

/* The y axis and the x axis of the plot area. */
static void y_axis_lines(FILE *f)
{
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", ML, MT, ML,
		MT + PH);
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", ML, MT + PH,
		ML + PW, MT + PH);
}

/* Horizontal grid lines and y tick labels for [0, ymax] in steps of step. */
static void y_axis(FILE *f, double ymax, double step)
{

	for (double v = 0; v <= ymax * (1 + 1e-9); v += step) {
		double y = MT + PH - v / ymax * PH;

		y_grid_line(f, y, v);
	}
	y_axis_lines(f);
}

static double y_top(double maxv, double *step)
{
	double top;

	if (!(maxv > 0) || !isfinite(maxv))
		maxv = 1;
	*step = nice_step(maxv * 1.08, 5);
	top = ceil(maxv * 1.08 / *step) * *step;
	return top;
}

static int chart_id(void)
{
	static int next;

	return ++next;
}

void svg_bar_chart(FILE *f, const struct svg_chart *c, const struct svg_bar *bars, size_t n)
{
	double maxv = 0, step, top, slot = n ? (double)PW / (double)n : PW;
	double bw = MIN(slot * 0.6, 70);
	int rotate = n > 4, extra = 0;
	char buf[32];

	for (size_t i = 0; i < n; i++) {
		double v = bars[i].value + (isfinite(bars[i].err) ? bars[i].err : 0);

		if (isfinite(v) && v > maxv)
			maxv = v;
		if (bars[i].note2 && !rotate)
			extra = 14;
	}
	top = c->ymax > 0 ? c->ymax : y_top(maxv, &step);
	if (c->ymax > 0)
		step = nice_step(top, 5);
	open_chart(f, c, W, H + extra, chart_id());
	y_axis(f, top, step);
	for (size_t i = 0; i < n; i++) {
		const struct svg_bar *b = &bars[i];
		double cx = ML + slot * ((double)i + 0.5), y, h, label_y;

		if (isfinite(b->value)) {
			h = MAX(b->value, 0) / top * PH;
			y = MT + PH - h;
			fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				   "height=\"%.1f\" fill=\"%s\"><title>",
				cx - bw / 2, y, bw, h, svg_color(b->style));
			svg_escape(f, b->label);
			fmt_value(buf, sizeof(buf), b->value);
			fprintf(f, ": %s", buf);
			if (isfinite(b->err)) {
				fmt_value(buf, sizeof(buf), b->err);
				fprintf(f, " &#177; %s (95%% CI)", buf);
			}
			fputs("</title></rect>\n", f);
			label_y = y - 5;
			if (isfinite(b->err) && b->err > 0) {
				double y1 = MT + PH - MAX(b->value - b->err, 0) / top * PH;
				double y2 = MT + PH - (b->value + b->err) / top * PH;

				fprintf(f, "<path class=\"err\" d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f "
					   "%.1fH%.1f\"/>\n",
					cx, y1, y2, cx - 6, y1, cx + 6, cx - 6, y2, cx + 6);
				label_y = MIN(label_y, y2 - 5);
			}
			fmt_value(buf, sizeof(buf), b->value);
			fprintf(f, "<text class=\"val\" x=\"%.1f\" y=\"%.1f\" "
				   "text-anchor=\"middle\">%s</text>\n",
				cx, MAX(label_y, MT - 2), buf);
		} else {
			fprintf(f, "<text class=\"val\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">no "
				   "data</text>\n",
				cx, MT + PH - 6);
		}
		if (rotate) {
			fprintf(f, "<text class=\"tick\" transform=\"translate(%.1f,%d) rotate(-25)\" "
				   "text-anchor=\"end\">",
				cx + 4, MT + PH + 14);
			svg_escape(f, b->label);
			if (b->note) {
				fputs(" (", f);
				svg_escape(f, b->note);
				if (b->note2) {
					fputs(", ", f);
					svg_escape(f, b->note2);
				}
				fputc(')', f);
			}
			fputs("</text>\n", f);
			continue;
		}
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", cx,
			MT + PH + 16);
		svg_escape(f, b->label);
		fputs("</text>\n", f);
		if (b->note) {
			fprintf(f, "<text class=\"note\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
				cx, MT + PH + 30);
			svg_escape(f, b->note);
			fputs("</text>\n", f);
		}
		if (b->note2) {
			fprintf(f, "<text class=\"note\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
				cx, MT + PH + 43);
			svg_escape(f, b->note2);
			fputs("</text>\n", f);
		}
	}
	axis_labels(f, c, extra);
	fputs("</svg>\n", f);
}

/* Where a line chart's points go: its x and y ranges, each linear or
 * logarithmic (then lo and hi are exponents of ten). */
struct axes {
	int xlog, ylog;
	double xlo, xhi, ylo, yhi;
};

static int point_ok(const struct axes *a, double x, double y)
{
	return isfinite(x) && isfinite(y) && (!a->xlog || x > 0) && (!a->ylog || y > 0);
}

static double ax_x(const struct axes *a, double x)
{
	if (a->xlog)
		return ML + (log10(x) - a->xlo) / (a->xhi - a->xlo) * PW;
	return ML + (x - a->xlo) / (a->xhi - a->xlo) * PW;
}

/* A linear y is held inside the plot (a fixed ymax may be below a point). */
static double ax_y(const struct axes *a, double y)
{
	if (a->ylog)
		return MT + PH - (log10(y) - a->ylo) / (a->yhi - a->ylo) * PH;
	return MT + PH - (MIN(MAX(y, a->ylo), a->yhi) - a->ylo) / (a->yhi - a->ylo) * PH;
}

/* about 6.5 px a character at the tick size */
#define TICK_CHAR_PX 6.5

/* A grid line across at x, and its label under the axis; a label that
 * would run past the chart's right edge ends there instead ("p99.99"). */
static void x_tick(FILE *f, double x, const char *label)
{
	double half = label ? TICK_CHAR_PX * (double)strlen(label) / 2 : 0;

	fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", x, MT, x,
		MT + PH);
	if (label && x + half > W - 2)
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
			W - 2, MT + PH + 16, label);
	else if (label)
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
			x, MT + PH + 16, label);
}

double svg_nines(double p)
{
	return -log10(1 - p);
}

/* "p50", "p90", "p99", "p99.9", "p99.99", ...: the percentile at k nines. */
static void nines_label(char *buf, size_t len, int k)
{
	int n = 0;

	if (k <= 1) {
		snprintf(buf, len, "p90");
		return;
	}
	n = snprintf(buf, len, "p99");
	if (k > 2 && n + 1 < (int)len)
		buf[n++] = '.';
	for (int i = 2; i < k && n + 1 < (int)len; i++)
		buf[n++] = '9';
	buf[n] = 0;
}

/* A nines x axis from p0 to at least p99.99 (further when the data goes
 * further), ticked at p50 and every nine; a label that would run into the
 * one before it is left out (its grid line stays). */
static void nines_axis(FILE *f, struct axes *a, double xmax)
{
	char buf[32];
	double last;

	a->xlo = 0;
	a->xhi = MAX(4, ceil(xmax - 1e-9));
	last = ax_x(a, svg_nines(0.5));
	x_tick(f, last, "p50");
	for (int k = 1; k <= (int)a->xhi; k++) {
		double x = ax_x(a, k);
		int room;

		nines_label(buf, sizeof(buf), k);
		room = x - last > TICK_CHAR_PX * (double)strlen(buf) + 4;
		x_tick(f, x, room ? buf : NULL);
		if (room)
			last = x;
	}
}

/* Horizontal grid lines and y tick labels on a log axis of decades
 * [10^lo, 10^hi]; with one or two decades 2 and 5 of each too. */
static void y_axis_log(FILE *f, const struct axes *a)
{
	static const double steps[] = { 1, 2, 5 };
	int fine = a->yhi - a->ylo <= 2;

	for (double e = a->ylo; e <= a->yhi + 1e-9; e++) {
		for (size_t k = 0; k < (fine ? ARRAY_SIZE(steps) : 1); k++) {
			double v = steps[k] * pow(10, e), y;

			if (log10(v) > a->yhi + 1e-9)
				break;
			y = ax_y(a, v);
			y_grid_line(f, y, v);
		}
	}
	y_axis_lines(f);
}

void svg_line_chart(FILE *f, const struct svg_chart *c, const struct svg_series *s, size_t n)
{
	struct axes a = { .xlog = c->xlog && !c->xnines, .ylog = c->ylog };
	double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = 0, step, top;
	int rows = (int)((n + LEGEND_COLS - 1) / LEGEND_COLS), height = H + rows * LEGEND_ROW + 8;
	char buf[32];

	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < s[i].n; k++) {
			if (!point_ok(&a, s[i].x[k], s[i].y[k]))
				continue;
			xmin = MIN(xmin, s[i].x[k]);
			xmax = MAX(xmax, s[i].x[k]);
			ymin = MIN(ymin, s[i].y[k]);
			ymax = MAX(ymax, s[i].y[k]);
		}
	}
	if (!isfinite(xmin)) {
		xmin = a.xlog ? 1 : 0;
		xmax = a.xlog ? 10 : 1;
	}
	open_chart(f, c, W, height, chart_id());
	if (a.ylog) {
		if (!isfinite(ymin)) {
			ymin = 1;
			ymax = 10;
		}
		a.ylo = floor(log10(ymin));
		a.yhi = ceil(log10(ymax));
		if (a.yhi <= a.ylo)
			a.yhi = a.ylo + 1;
		y_axis_log(f, &a);
	} else {
		top = c->ymax > 0 ? c->ymax : y_top(ymax, &step);
		if (c->ymax > 0)
			step = nice_step(top, 5);
		a.ylo = 0;
		a.yhi = top;
		y_axis(f, top, step);
	}

	/* x axis: nines, decades for a log axis, round steps otherwise */
	if (c->xnines) {
		nines_axis(f, &a, xmax);
	} else if (a.xlog) {
		a.xlo = floor(log10(xmin));
		a.xhi = ceil(log10(xmax));
		if (a.xhi <= a.xlo)
			a.xhi = a.xlo + 1;
		for (double e = a.xlo; e <= a.xhi + 1e-9; e++) {
			fmt_tick(buf, sizeof(buf), pow(10, e));
			x_tick(f, ax_x(&a, pow(10, e)), buf);
		}
	} else {
		double xs;

		a.xlo = xmin > 0 && xmin < (xmax - xmin) ? 0 : xmin;
		xs = nice_step(xmax - a.xlo, 6);
		a.xlo = floor(a.xlo / xs) * xs;
		a.xhi = ceil(xmax / xs) * xs;
		if (a.xhi <= a.xlo)
			a.xhi = a.xlo + xs;
		for (double v = a.xlo; v <= a.xhi + xs * 1e-9; v += xs) {
			fmt_tick(buf, sizeof(buf), v);
			x_tick(f, ax_x(&a, v), buf);
		}
	}

	for (size_t i = 0; i < n; i++) {
		double px = NAN, py = NAN;
		size_t k;

		fprintf(f, "<polyline class=\"line\" stroke=\"%s\"", svg_color(s[i].style));
		if (*dash(s[i].style))
			fprintf(f, " stroke-dasharray=\"%s\"", dash(s[i].style));
		fputs(" points=\"", f);
		for (k = 0; k < s[i].n; k++) {
			double x, y;

			if (!point_ok(&a, s[i].x[k], s[i].y[k]))
				continue;
			x = ax_x(&a, s[i].x[k]);
			y = ax_y(&a, s[i].y[k]);
			/* thousands of histogram buckets: keep a point per pixel */
			if (k + 1 < s[i].n && fabs(x - px) < 0.8 && fabs(y - py) < 0.8)
				continue;
			fprintf(f, "%.1f,%.1f ", x, y);
			px = x;
			py = y;
		}
		fputs("\"><title>", f);
		svg_escape(f, s[i].name);
		fputs("</title></polyline>\n", f);
	}
	axis_labels(f, c, 0);

	for (size_t i = 0; i < n; i++) {
		int col = (int)(i % LEGEND_COLS), row = (int)(i / LEGEND_COLS);
		int x = ML + col * (PW / LEGEND_COLS), y = H + 8 + row * LEGEND_ROW;

		fprintf(f, "<line class=\"line\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\"",
			x, y - 4, x + 24, y - 4, svg_color(s[i].style));
		if (*dash(s[i].style))
			fprintf(f, " stroke-dasharray=\"%s\"", dash(s[i].style));
		fprintf(f, "/>\n<text class=\"legend\" x=\"%d\" y=\"%d\">", x + 30, y);
		svg_escape(f, s[i].name);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
}

/* --- heat map ---------------------------------------------------------------- */

#define HM_ML 92 /* row labels and the rotated row-axis label */
#define HM_MT 40
#define HM_CW 56 /* cell size */
#define HM_CH 24
#define HM_MB 52 /* column labels and the column-axis label */
#define HM_LEGEND 120 /* legend: bar, ticks, its label */
#define HM_STEPS 12

/* A sequential scale from dark blue-violet through teal and green to
 * yellow: lightness rises steadily, so the order survives a grey printout
 * and the common colour-vision deficiencies. */
static const unsigned char ramp[][3] = {
	{ 0x44, 0x01, 0x54 }, { 0x3b, 0x52, 0x8b }, { 0x21, 0x90, 0x8d },
	{ 0x5d, 0xc8, 0x63 }, { 0xfd, 0xe7, 0x25 },
};

/* Colour of t in [0, 1] as "#rrggbb" in buf; returns 1 when dark text
 * is readable on it, 0 for light text. */
static int ramp_color(char *buf, size_t len, double t)
{
	size_t n = ARRAY_SIZE(ramp) - 1, i;
	double rgb[3], frac, lum;

	if (!isfinite(t))
		t = 0.5;
	t = MIN(MAX(t, 0), 1);
	i = MIN((size_t)(t * (double)n), n - 1);
	frac = t * (double)n - (double)i;
	for (int k = 0; k < 3; k++)
		rgb[k] = ramp[i][k] + (ramp[i + 1][k] - ramp[i][k]) * frac;
	snprintf(buf, len, "#%02x%02x%02x", (unsigned)lround(rgb[0]), (unsigned)lround(rgb[1]),
		 (unsigned)lround(rgb[2]));
	lum = (0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]) / 255.0;
	return lum > 0.5;
}

static int heat_log(const struct svg_heatmap *h)
{
	return h->lo > 0 && h->hi > h->lo && isfinite(h->hi);
}

/* Position of v on the colour scale, 0 (lo) to 1 (hi). */
static double heat_pos(const struct svg_heatmap *h, double v)
{
	if (!(h->hi > h->lo) || !isfinite(h->lo) || !isfinite(h->hi))
		return 0.5;
	if (heat_log(h))
		return (log10(MAX(v, h->lo)) - log10(h->lo)) / (log10(h->hi) - log10(h->lo));
	return (v - h->lo) / (h->hi - h->lo);
}

/* The value at scale position t. */
static double heat_value(const struct svg_heatmap *h, double t)
{
	if (heat_log(h))
		return pow(10, log10(h->lo) + t * (log10(h->hi) - log10(h->lo)));
	return h->lo + t * (h->hi - h->lo);
}

/* Three significant digits with k, M, G, T: fits a cell ("506k", "1.22M");
 * 999.7 is "1k", not "1e+03". */
static void fmt_short(char *buf, size_t len, double v)
{
	static const char *const suffix[] = { "", "k", "M", "G", "T" };
	size_t i = 0;

	while (fabs(v) >= 999.5 && i + 1 < ARRAY_SIZE(suffix)) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, "%.3g%s", v, suffix[i]);
}

static void heat_legend(FILE *f, const struct svg_heatmap *h, int x, int y, int height)
{
	double step = (double)height / HM_STEPS;
	char col[16], buf[32];

	fprintf(f, "<g class=\"heatlegend\"><text class=\"alabel\" x=\"%d\" y=\"%d\">", x, y - 8);
	svg_escape(f, h->unit);
	fprintf(f, "%s</text>\n", heat_log(h) ? " (log scale)" : "");
	for (int i = 0; i < HM_STEPS; i++) {
		/* top step is the highest value */
		ramp_color(col, sizeof(col), 1.0 - ((double)i + 0.5) / HM_STEPS);
		fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"16\" height=\"%.1f\" fill=\"%s\"/>\n",
			x, y + i * step, step + 0.5, col);
	}
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"%d\" fill=\"none\" "
		   "stroke=\"#333\"/>\n",
		x, y, height);
	if (!isfinite(h->lo) || !isfinite(h->hi)) {
		fputs("</g>\n", f);
		return;
	}
	for (int k = 0; k <= 2; k++) {
		double t = k / 2.0, yy = y + (1.0 - t) * height;

		fmt_short(buf, sizeof(buf), heat_value(h, t));
		fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n",
			x + 16, yy, x + 21, yy);
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%.1f\">%s</text>\n", x + 24, yy + 4, buf);
		if (h->lo == h->hi)
			break;
	}
	fputs("</g>\n", f);
}

void svg_heat_map(FILE *f, const struct svg_chart *c, const struct svg_heatmap *h)
{
	int gw = (int)h->ncols * HM_CW, gh = (int)h->nrows * HM_CH;
	int lh = MAX(gh, 120), width = MAX(HM_ML + gw + 24 + HM_LEGEND, 380);
	int height = HM_MT + MAX(gh + HM_MB, lh) + 8;
	char col[16], buf[32], full[32];

	open_chart(f, c, width, height, chart_id());
	for (size_t r = 0; r < h->nrows; r++) {
		int y = HM_MT + (int)r * HM_CH;

		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"end\">", HM_ML - 6,
			y + HM_CH / 2 + 4);
		svg_escape(f, h->rows[r]);
		fputs("</text>\n", f);
		for (size_t k = 0; k < h->ncols; k++) {
			double v = h->v[r * h->ncols + k];
			int x = HM_ML + (int)k * HM_CW, dark;

			if (!isfinite(v)) {
				fprintf(f, "<rect class=\"empty\" x=\"%d\" y=\"%d\" width=\"%d\" "
					   "height=\"%d\" fill=\"#f4f4f4\" stroke=\"#fff\"/>\n",
					x, y, HM_CW, HM_CH);
				continue;
			}
			dark = ramp_color(col, sizeof(col), heat_pos(h, v));
			fmt_value(full, sizeof(full), v);
			fprintf(f, "<g class=\"cell\" data-row=\"");
			svg_escape(f, h->rows[r]);
			fputs("\" data-col=\"", f);
			svg_escape(f, h->cols[k]);
			fputs("\"><title>", f);
			svg_escape(f, h->row_name);
			fputc(' ', f);
			svg_escape(f, h->rows[r]);
			fputc(' ', f);
			svg_escape(f, h->label_unit);
			fputs(", ", f);
			svg_escape(f, h->col_name);
			fputc(' ', f);
			svg_escape(f, h->cols[k]);
			fputc(' ', f);
			svg_escape(f, h->label_unit);
			fprintf(f, ": %s ", full);
			svg_escape(f, h->unit);
			fprintf(f, "</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
				   "fill=\"%s\" stroke=\"#fff\"/>",
				x, y, HM_CW, HM_CH, col);
			fmt_short(buf, sizeof(buf), v);
			fprintf(f, "<text class=\"val\" x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
				   "fill=\"%s\" style=\"fill:%s\">%s</text></g>\n",
				x + HM_CW / 2, y + HM_CH / 2 + 4, dark ? "#000" : "#fff",
				dark ? "#000" : "#fff", buf);
		}
	}
	for (size_t k = 0; k < h->ncols; k++) {
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
			HM_ML + (int)k * HM_CW + HM_CW / 2, HM_MT + gh + 16);
		svg_escape(f, h->cols[k]);
		fputs("</text>\n", f);
	}
	fprintf(f, "<text class=\"alabel\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		HM_ML + gw / 2, HM_MT + gh + 38);
	svg_escape(f, c->xlabel);
	fprintf(f, "</text>\n<text class=\"alabel\" transform=\"translate(18,%d) rotate(-90)\" "
		   "text-anchor=\"middle\">",
		HM_MT + gh / 2);
	svg_escape(f, c->ylabel);
	fputs("</text>\n", f);
	heat_legend(f, h, HM_ML + gw + 24, HM_MT + 14, lh - 14);
	fputs("</svg>\n", f);
}
