build/src/stats/hist.o: src/stats/hist.c src/stats/hist.h
src/stats/hist.h:
