build/src/workload/builtin.o: src/workload/builtin.c \
 src/workload/builtin.h
src/workload/builtin.h:
