build/src/cmd/list.o: src/cmd/list.c src/cmd/cmd.h src/util/util.h \
 src/workload/builtin.h
src/cmd/cmd.h:
src/util/util.h:
src/workload/builtin.h:
