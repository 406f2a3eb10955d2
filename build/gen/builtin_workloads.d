build/gen/builtin_workloads.o: build/gen/builtin_workloads.c \
 src/workload/builtin.h
src/workload/builtin.h:
