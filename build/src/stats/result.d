build/src/stats/result.o: src/stats/result.c src/stats/result.h \
 src/stats/hist.h src/util/util.h
src/stats/result.h:
src/stats/hist.h:
src/util/util.h:
