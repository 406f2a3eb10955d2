build/src/runner/runner.o: src/runner/runner.c src/runner/runner.h \
 src/runner/data.h src/util/rand.h src/stats/result.h src/stats/hist.h \
 src/workload/workload.h src/runner/internal.h src/engine/engine.h \
 src/runner/fileset.h src/util/rundir.h src/util/util.h
src/runner/runner.h:
src/runner/data.h:
src/util/rand.h:
src/stats/result.h:
src/stats/hist.h:
src/workload/workload.h:
src/runner/internal.h:
src/engine/engine.h:
src/runner/fileset.h:
src/util/rundir.h:
src/util/util.h:
