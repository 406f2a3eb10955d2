build/src/workload/lex.o: src/workload/lex.c src/workload/lex.h \
 src/workload/sbuf.h src/util/util.h
src/workload/lex.h:
src/workload/sbuf.h:
src/util/util.h:
