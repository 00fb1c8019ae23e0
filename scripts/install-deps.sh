#!/usr/bin/env bash
# Installs what fusec needs from Debian's packages and PyPI. Idempotent: only what is missing.
# Further Debian packages a script needs may be named as arguments
# (scripts/run-sanitizers.sh: clang-19's sanitizer runtimes and OpenMP).
set -euo pipefail

debian_packages=(
  cmake ninja-build g++ gfortran python3-pip
  llvm-19-dev llvm-19-tools libmlir-19-dev mlir-19-tools clang-19 libclang-19-dev
  catch2 libyaml-cpp-dev libnetcdf-dev
  libopenmpi-dev openmpi-bin
  valgrind
  "$@"
)

missing=()
for pkg in "${debian_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

python_packages=(lit numpy matplotlib)
for pkg in "${python_packages[@]}"; do
  python3 -c "import $pkg" 2>/dev/null || python3 -m pip install -q "$pkg"
done

command -v nvcc >/dev/null || echo "install-deps: note: nvcc not found; CUDA compile tests will be skipped"
echo "install-deps: all dependencies present"
