build/src/workload/var.o: src/workload/var.c src/workload/internal.h \
 src/workload/sbuf.h src/workload/workload.h src/util/rand.h \
 src/util/size.h src/util/util.h
src/workload/internal.h:
src/workload/sbuf.h:
src/workload/workload.h:
src/util/rand.h:
src/util/size.h:
src/util/util.h:
