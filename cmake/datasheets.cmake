# datasheets.cmake - records/datasheets.json, the GPUs' published peak
# figures that bounds are made from, turned into a C table at configure time
# (generated/datasheets.h, included by src/app/bound.c). A figure missing,
# not a number or out of range stops the configure with a sentence naming it.
set(CONVIS_DATASHEETS ${CMAKE_SOURCE_DIR}/records/datasheets.json)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CONVIS_DATASHEETS})
file(READ ${CONVIS_DATASHEETS} convis_ds_json)

# A C string literal of `text`.
function(convis_c_string out text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  set(${out} "\"${text}\"" PARENT_SCOPE)
endfunction()

# Field `key` of GPU `i`, or a configure error naming it.
function(convis_ds_field out i key)
  string(JSON value ERROR_VARIABLE why GET "${convis_ds_json}" gpus ${i} ${key})
  if(why)
    message(FATAL_ERROR "${CONVIS_DATASHEETS}: GPU ${i} has no \"${key}\" (${why})")
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

# Number field `key` of GPU `i`, from `lo` to `hi`.
function(convis_ds_number out i key lo hi)
  convis_ds_field(value ${i} ${key})
  string(JSON kind TYPE "${convis_ds_json}" gpus ${i} ${key})
  if(NOT kind STREQUAL "NUMBER" OR value LESS ${lo} OR value GREATER ${hi})
    message(FATAL_ERROR "${CONVIS_DATASHEETS}: GPU ${i}'s \"${key}\" is ${value}, not a number from ${lo} to ${hi}")
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

string(JSON convis_ds_count ERROR_VARIABLE why LENGTH "${convis_ds_json}" gpus)
if(why OR convis_ds_count LESS 1 OR convis_ds_count GREATER 8)
  message(FATAL_ERROR "${CONVIS_DATASHEETS}: \"gpus\" is not a list of 1 to 8 GPUs (${why})")
endif()
set(convis_ds_rows "")
math(EXPR convis_ds_last "${convis_ds_count} - 1")
foreach(i RANGE ${convis_ds_last})
  convis_ds_field(name ${i} name)
  convis_ds_field(short ${i} short)
  convis_ds_field(class ${i} class)
  convis_ds_field(source ${i} source)
  if(NOT class MATCHES "^(data-centre|desktop|laptop)$")
    message(FATAL_ERROR "${CONVIS_DATASHEETS}: GPU ${i}'s \"class\" is '${class}'; it is data-centre, desktop or laptop")
  endif()
  convis_ds_number(memory ${i} memory_gb_s 1 100000)
  convis_ds_number(fp32 ${i} fp32_tflops 0.01 10000)
  convis_ds_number(link ${i} host_link_gb_s 0.1 10000)
  convis_c_string(name "${name}")
  convis_c_string(short "${short}")
  convis_c_string(class "${class}")
  convis_c_string(source "${source}")
  string(APPEND convis_ds_rows
    "    {${name}, ${short}, ${class}, ${memory}, ${fp32}, ${link},\n     ${source}},\n")
endforeach()
file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/generated/datasheets.h CONTENT
"/* Generated from records/datasheets.json by cmake/datasheets.cmake: do not edit. */
static const bound_gpu BOUND_DATASHEETS[] = {
${convis_ds_rows}};
" @ONLY)
