# shellcheck shell=bash disable=SC2034,SC2054
# screens.sh - the golden screens of the window, shared by test_window.sh
# (which compares) and update_goldens.sh (which makes them). Sourced, not run.
#
# Each screen is a name (its file is tests/golden/NAME.png), the actions run
# before the screenshot (--do; empty for none), and whether it shows the GPU
# phase: those are made with the gl engine (OpenGL compute on llvmpipe) and
# are only compared where --print-state says gpu_engine=gl.

GOLDEN_WINDOW=1280x720
GOLDEN_SCREENS=(first_screen cpu_partway gpu_timing thread_view)

golden_actions() {
  case $1 in
    first_screen) echo "" ;;                 # no action: the first screen
    cpu_partway) echo "step*45,tap*4" ;;      # the CPU walk, output 45 at tap 4 of 9
    gpu_timing) echo "step*20,gpu" ;;         # after the GPU phase: every output, timing chart
    thread_view) echo "zoom-out,gpu,threads" ;; # the GPU phase's blocks and threads
    *) return 1 ;;
  esac
}

golden_needs_gl() {
  case $1 in
    gpu_timing | thread_view) return 0 ;;
    *) return 1 ;;
  esac
}

# What is measured live (and so differs from run to run), at 1280x720, from
# view.c's layout (u = 1, pad = 10, small font 13 px with 16 px lines; the
# status block and the chart start at y = 536 below the 446-pixel grids):
#   - the status lines of the three engines and the line saying why CUDA is
#     not used (times, repetitions, thread count, SIMD, the GL renderer, the
#     CUDA driver: y 572..635, x 0..631);
#   - the chart's "(log scale)", shown when the times differ 30-fold
#     (y 536..555, from x 878, just after "Time for the whole 512x384 image");
#   - the chart's bars and times, right of the engine names (y 556..612,
#     from x 705);
#   - the chart's line of ratios ("cpu-par 17.2x faster...", y 613..630);
#   - the GPU engine's name in the chart (x 641..704, y 594..612): gl here,
#     cuda on a machine with CUDA, where the GPU screens are not compared but
#     the first two are.
# The CPU engines' names in the chart, its legend and everything else are
# compared. A change to the layout moves these: look at the masks (the dark
# blue of a NAME.diff.png) when making the goldens again.
GOLDEN_MASKS=(
  --mask 0,572,632,64
  --mask 878,536,392,20
  --mask 705,556,565,57
  --mask 640,613,630,18
  --mask 641,594,64,19
)
