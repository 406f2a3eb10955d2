build/src/workload/randvar.o: src/workload/randvar.c \
 src/workload/internal.h src/workload/sbuf.h src/workload/workload.h \
 src/util/rand.h src/util/util.h
src/workload/internal.h:
src/workload/sbuf.h:
src/workload/workload.h:
src/util/rand.h:
src/util/util.h:
