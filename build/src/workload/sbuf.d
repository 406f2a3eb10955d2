build/src/workload/sbuf.o: src/workload/sbuf.c src/workload/sbuf.h \
 src/util/util.h
src/workload/sbuf.h:
src/util/util.h:
