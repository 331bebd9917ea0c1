# CTest python_install: installs the Python package alone into a scratch
# prefix (cmake --install BUILD_DIR --component python --prefix PREFIX) and
# imports it from PREFIX/SITE with PYTHON, checking that the package found
# is the installed one and that it samples a clip.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --component python --prefix ${PREFIX}
  RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "cmake --install --component python failed (${rc})")
endif()
set(check "import sinew, os, sys
site = os.path.realpath(sys.argv[1])
assert os.path.realpath(sinew.__file__).startswith(site), sinew.__file__
assert os.path.exists(os.path.join(site, 'sinew', 'tools.py'))
a = sinew.Asset(sys.argv[2])
pose = sinew.sample(a.skeleton, a.clips[0], 0.1)
print('installed sinew', sinew.__version__, 'at', site, pose.shape)")
execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${PREFIX}/${SITE}
  ${PYTHON} -c "${check}" ${PREFIX}/${SITE} ${CMAKE_CURRENT_LIST_DIR}/../data/mixed_orders.bvh
  WORKING_DIRECTORY ${PREFIX} RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the installed package did not import and sample (${rc})")
endif()
