build/src/stats/env.o: src/stats/env.c src/stats/env.h src/stats/result.h \
 src/stats/hist.h src/util/util.h
src/stats/env.h:
src/stats/result.h:
src/stats/hist.h:
src/util/util.h:
