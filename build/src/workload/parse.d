build/src/workload/parse.o: src/workload/parse.c src/workload/internal.h \
 src/workload/sbuf.h src/workload/workload.h src/util/rand.h \
 src/workload/lex.h src/util/util.h
src/workload/internal.h:
src/workload/sbuf.h:
src/workload/workload.h:
src/util/rand.h:
src/workload/lex.h:
src/util/util.h:
