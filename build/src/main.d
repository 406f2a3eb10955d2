build/src/main.o: src/main.c src/cmd/cmd.h src/engine/engine.h \
 src/util/util.h
src/cmd/cmd.h:
src/engine/engine.h:
src/util/util.h:
