build/src/workload/flowop.o: src/workload/flowop.c \
 src/workload/workload.h src/util/rand.h src/util/util.h
src/workload/workload.h:
src/util/rand.h:
src/util/util.h:
