#!/bin/sh
# layout_gpus.sh: a stand-in for condor_gpu_discovery -properties, for
# test_layout: four GPUs, two of capability 8.0, their properties as nested
# ads.  It prints its arguments (GPUDiscoveryArgs) so that the test sees
# what it was given, and LAYOUT_OFFLINE_GPUS, when set, as OfflineGPUs.
cat <<END
DetectedGPUs="GPU-aaaa1111, GPU-bbbb2222, GPU-cccc3333, GPU-dddd4444"
Common=[ DriverVersion=12.2; ECCEnabled=false; ]
GPU_aaaa1111=[ id="GPU-aaaa1111"; Capability=7.5; DeviceName="Tesla T4"; ]
GPU_bbbb2222=[ id="GPU-bbbb2222"; Capability=8.0; DeviceName="A100"; ]
GPU_cccc3333=[ id="GPU-cccc3333"; Capability=8.0; DeviceName="A100"; ]
GPU_dddd4444=[ id="GPU-dddd4444"; Capability=7.5; DeviceName="Tesla T4"; ]
GPUDiscoveryArgs="$*"
END
if [ -n "$LAYOUT_OFFLINE_GPUS" ]; then
	echo "OfflineGPUs=\"$LAYOUT_OFFLINE_GPUS\""
fi
