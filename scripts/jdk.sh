# shellcheck shell=bash
# Sourced by .ci/run and ./cosmolab: points JAVA_HOME at a JDK 21 or newer.
#
# Order of preference: $JAVA_HOME, the `java` on PATH, then every JDK under
# /usr/lib/jvm and /opt (newest first). The first one whose javac reports a
# feature version of 21 or more wins. If none does, it says what is needed and
# returns 1, so callers can stop with that message.

cosmolab_jdk_version() {
  # prints the feature version of the JDK at $1 (e.g. 25), or nothing
  local home=$1 v
  [ -x "$home/bin/javac" ] || return 0
  # The JDK's release file names its version; reading it is instant, while starting javac to
  # ask takes a third of a second on a small machine (every ./cosmolab run pays it).
  if [ -f "$home/release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9][0-9]*\).*/\1/p' "$home/release" | head -n 1)
  fi
  if [ -z "${v:-}" ]; then
    v=$("$home/bin/javac" -version 2>&1 | sed -n 's/^javac \([0-9][0-9]*\).*/\1/p' | head -n 1)
  fi
  printf '%s' "$v"
}

cosmolab_find_jdk() {
  local candidates=() home v
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v javac >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")")
  fi
  for home in $(ls -d /usr/lib/jvm/* /opt/*jdk* /opt/java/* 2>/dev/null | sort -rV); do
    candidates+=("$home")
  done
  for home in "${candidates[@]}"; do
    v=$(cosmolab_jdk_version "$home")
    if [ -n "$v" ] && [ "$v" -ge 21 ]; then
      export JAVA_HOME=$home
      export PATH="$JAVA_HOME/bin:$PATH"
      export COSMOLAB_JDK_VERSION=$v
      # JVM flags for cosmolab's own processes (the launcher and the tests' JVMs).
      # Netty (in the SDK that rehearse, migrate and advise --from use) calls restricted methods;
      # without this, JDK 22+ prints four warnings on every such command
      COSMOLAB_JVM_FLAGS="--enable-native-access=ALL-UNNAMED"
      if [ "$v" -ge 24 ]; then
        # Maven's Guice and Netty use sun.misc.Unsafe; JDK 24+ warns about it on every run
        export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
        COSMOLAB_JVM_FLAGS="$COSMOLAB_JVM_FLAGS --sun-misc-unsafe-memory-access=allow"
      fi
      export COSMOLAB_JVM_FLAGS
      return 0
    fi
  done
  echo "cosmolab needs a JDK 21 or newer (javac, not only a JRE)." >&2
  echo "Looked at: \$JAVA_HOME, the javac on PATH, /usr/lib/jvm/*, /opt/*jdk*." >&2
  echo "Install one (for example: apt-get install openjdk-21-jdk-headless) or set JAVA_HOME to it." >&2
  return 1
}
