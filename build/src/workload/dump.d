build/src/workload/dump.o: src/workload/dump.c src/workload/internal.h \
 src/workload/sbuf.h src/workload/workload.h src/util/rand.h \
 src/util/util.h
src/workload/internal.h:
src/workload/sbuf.h:
src/workload/workload.h:
src/util/rand.h:
src/util/util.h:
