build/src/output/json.o: src/output/json.c src/output/output.h \
 src/stats/result.h src/stats/hist.h src/util/util.h
src/output/output.h:
src/stats/result.h:
src/stats/hist.h:
src/util/util.h:
