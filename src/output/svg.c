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

static void open_chart(FILE *f, const struct svg_chart *c, int height, int id)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" "
		   "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-labelledby=\"ct%d cd%d\" "
		   "data-chart=\"",
		W, height, W, height, id, id);
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
	fprintf(f, "<text class=\"ctitle\" x=\"%d\" y=\"20\" text-anchor=\"middle\">", W / 2);
	svg_escape(f, c->title);
	fputs("</text>\n", f);
}

static void axis_labels(FILE *f, const struct svg_chart *c)
{
	fprintf(f, "<text class=\"alabel\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", ML + PW / 2,
		MT + PH + 48);
	svg_escape(f, c->xlabel);
	fprintf(f, "</text>\n<text class=\"alabel\" transform=\"translate(16,%d) rotate(-90)\" "
		   "text-anchor=\"middle\">",
		MT + PH / 2);
	svg_escape(f, c->ylabel);
	fputs("</text>\n", f);
}

/* Horizontal grid lines and y tick labels for [0, ymax] in steps of step. */
static void y_axis(FILE *f, double ymax, double step)
{
	char buf[32];

	for (double v = 0; v <= ymax * (1 + 1e-9); v += step) {
		double y = MT + PH - v / ymax * PH;

		fmt_tick(buf, sizeof(buf), v);
		fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", ML, y,
			ML + PW, y);
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			ML - 5, y + 4, buf);
	}
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", ML, MT, ML,
		MT + PH);
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", ML, MT + PH,
		ML + PW, MT + PH);
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
	int rotate = n > 4;
	char buf[32];

	for (size_t i = 0; i < n; i++) {
		double v = bars[i].value + (isfinite(bars[i].err) ? bars[i].err : 0);

		if (isfinite(v) && v > maxv)
			maxv = v;
	}
	top = c->ymax > 0 ? c->ymax : y_top(maxv, &step);
	if (c->ymax > 0)
		step = nice_step(top, 5);
	open_chart(f, c, H, chart_id());
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
	}
	axis_labels(f, c);
	fputs("</svg>\n", f);
}

static double x_pos(const struct svg_chart *c, double x, double lo, double hi)
{
	if (c->xlog)
		return ML + (log10(x) - lo) / (hi - lo) * PW;
	return ML + (x - lo) / (hi - lo) * PW;
}

void svg_line_chart(FILE *f, const struct svg_chart *c, const struct svg_series *s, size_t n)
{
	double xmin = INFINITY, xmax = -INFINITY, ymax = 0, step, top, lo, hi;
	int rows = (int)((n + LEGEND_COLS - 1) / LEGEND_COLS), height = H + rows * LEGEND_ROW + 8;
	char buf[32];

	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < s[i].n; k++) {
			if (!isfinite(s[i].x[k]) || !isfinite(s[i].y[k]) ||
			    (c->xlog && !(s[i].x[k] > 0)))
				continue;
			xmin = MIN(xmin, s[i].x[k]);
			xmax = MAX(xmax, s[i].x[k]);
			ymax = MAX(ymax, s[i].y[k]);
		}
	}
	if (!isfinite(xmin)) {
		xmin = c->xlog ? 1 : 0;
		xmax = c->xlog ? 10 : 1;
	}
	top = c->ymax > 0 ? c->ymax : y_top(ymax, &step);
	if (c->ymax > 0)
		step = nice_step(top, 5);
	open_chart(f, c, height, chart_id());
	y_axis(f, top, step);

	/* x axis: decades for a log axis, round steps otherwise */
	if (c->xlog) {
		lo = floor(log10(xmin));
		hi = ceil(log10(xmax));
		if (hi <= lo)
			hi = lo + 1;
		for (double e = lo; e <= hi + 1e-9; e++) {
			double x = x_pos(c, pow(10, e), lo, hi);

			fmt_tick(buf, sizeof(buf), pow(10, e));
			fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n",
				x, MT, x, MT + PH);
			fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" "
				   "text-anchor=\"middle\">%s</text>\n",
				x, MT + PH + 16, buf);
		}
	} else {
		double xs;

		lo = xmin > 0 && xmin < (xmax - xmin) ? 0 : xmin;
		xs = nice_step(xmax - lo, 6);
		lo = floor(lo / xs) * xs;
		hi = ceil(xmax / xs) * xs;
		if (hi <= lo)
			hi = lo + xs;
		for (double v = lo; v <= hi + xs * 1e-9; v += xs) {
			double x = x_pos(c, v, lo, hi);

			fmt_tick(buf, sizeof(buf), v);
			fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n",
				x, MT, x, MT + PH);
			fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" "
				   "text-anchor=\"middle\">%s</text>\n",
				x, MT + PH + 16, buf);
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

			if (!isfinite(s[i].x[k]) || !isfinite(s[i].y[k]) ||
			    (c->xlog && !(s[i].x[k] > 0)))
				continue;
			x = x_pos(c, s[i].x[k], lo, hi);
			y = MT + PH - MIN(MAX(s[i].y[k], 0), top) / top * PH;
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
	axis_labels(f, c);

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
