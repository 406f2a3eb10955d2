build/src/output/text.o: src/output/text.c src/output/output.h \
 src/stats/result.h src/stats/hist.h
src/output/output.h:
src/stats/result.h:
src/stats/hist.h:
