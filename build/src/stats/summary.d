build/src/stats/summary.o: src/stats/summary.c src/stats/summary.h
src/stats/summary.h:
