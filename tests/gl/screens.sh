# shellcheck shell=bash disable=SC2034,SC2054
# screens.sh - the golden screens of the window, shared by test_window.sh
# (which compares) and update_goldens.sh (which makes them). Sourced, not run.
#
# Each screen is a name (its file is tests/golden/NAME.png), the actions run
# before the screenshot (--do; empty for none), and whether it shows the GPU
# phase: those are made with the gl engine (OpenGL compute on llvmpipe) and
# are only compared where --print-state says gpu_engine=gl.

GOLDEN_WINDOW=1280x720
GOLDEN_SCREENS=(first_screen cpu_partway gpu_timing thread_view inside_load inside_barrier inside_compute
  inside_no_barrier)

golden_actions() {
  case $1 in
    first_screen) echo "" ;;                 # no action: the first screen
    cpu_partway) echo "step*45,tap*4" ;;      # the CPU walk, output 45 at tap 4 of 9
    gpu_timing) echo "step*20,gpu" ;;         # after the GPU phase: every output, timing chart
    thread_view) echo "zoom-out,gpu,threads" ;; # the GPU phase's blocks and threads
    inside_load) echo "block-life" ;;         # inside the GPU: a block's tile loaded
    inside_barrier) echo "block-life*2" ;;    # ... its threads at the barrier
    inside_compute) echo "block-life*3,block-warp" ;; # ... the nine reads, warp 1
    inside_no_barrier) echo "block-life*4" ;; # ... without the barrier, simulated
    *) return 1 ;;
  esac
}

golden_needs_gl() {
  case $1 in
    gpu_timing | thread_view) return 0 ;;
    *) return 1 ;;
  esac
}

# What is measured live differs from run to run: the engines' status lines
# and the timing chart. The window says where they are: --print-state prints
# one "live_region=x,y,w,h" line for each, and golden_masks turns a state file
# into compare_png's --mask options. Everything else on the screen is
# compared: the grids, the kernel, the arithmetic, the thumbnails, the chips,
# the title and the walk's counter.
golden_masks() {
  local region
  GOLDEN_MASKS=()
  while IFS= read -r region; do
    GOLDEN_MASKS+=(--mask "$region")
  done < <(sed -n 's/^live_region=//p' "$1")
}
