/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The HIP runtime calls this project uses, mapped onto the CUDA runtime.
 * Debian's HIP-on-NVIDIA headers (HIP 5.2) do not compile against CUDA 13,
 * so the NVIDIA build uses this thin mapping instead. Add a name here only
 * when the project starts to use it.
 */
#ifndef HIP_ON_CUDA_H
#define HIP_ON_CUDA_H

#include <cuda_runtime_api.h>

typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
typedef cudaEvent_t hipEvent_t;
typedef enum cudaMemcpyKind hipMemcpyKind;
typedef enum cudaDeviceAttr hipDeviceAttribute_t;

#define hipSuccess                      cudaSuccess
#define hipErrorInvalidValue            cudaErrorInvalidValue
#define hipErrorOutOfMemory             cudaErrorMemoryAllocation
#define hipErrorNoDevice                cudaErrorNoDevice
#define hipErrorInvalidDevice           cudaErrorInvalidDevice
#define hipErrorLaunchFailure           cudaErrorLaunchFailure
#define hipErrorNotReady                cudaErrorNotReady

#define hipMemcpyHostToDevice           cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost           cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice         cudaMemcpyDeviceToDevice

#define hipStreamNonBlocking            cudaStreamNonBlocking
#define hipHostMallocDefault            cudaHostAllocDefault
#define hipHostMallocPortable           cudaHostAllocPortable
#define hipHostRegisterDefault          cudaHostRegisterDefault
#define hipEventDefault                 cudaEventDefault
#define hipEventDisableTiming           cudaEventDisableTiming
#define hipEventBlockingSync            cudaEventBlockingSync

#define hipDeviceAttributeMultiprocessorCount     cudaDevAttrMultiProcessorCount
#define hipDeviceAttributeMaxThreadsPerBlock      cudaDevAttrMaxThreadsPerBlock
#define hipDeviceAttributeMaxSharedMemoryPerBlock cudaDevAttrMaxSharedMemoryPerBlock
#define hipDeviceAttributeWarpSize                cudaDevAttrWarpSize
#define hipDeviceAttributeSharedMemPerBlockOptin  cudaDevAttrMaxSharedMemoryPerBlockOptin
#define hipDeviceAttributeComputeCapabilityMajor  cudaDevAttrComputeCapabilityMajor
#define hipFuncAttributeMaxDynamicSharedMemorySize cudaFuncAttributeMaxDynamicSharedMemorySize

#define hipGetErrorString               cudaGetErrorString
#define hipGetErrorName                 cudaGetErrorName
#define hipGetLastError                 cudaGetLastError
#define hipGetDeviceCount               cudaGetDeviceCount
#define hipGetDevice                    cudaGetDevice
#define hipSetDevice                    cudaSetDevice
#define hipDeviceGetAttribute           cudaDeviceGetAttribute
#define hipDeviceSynchronize            cudaDeviceSynchronize
#define hipMemGetInfo                   cudaMemGetInfo
#define hipStreamCreateWithFlags        cudaStreamCreateWithFlags
#define hipStreamDestroy                cudaStreamDestroy
#define hipStreamSynchronize            cudaStreamSynchronize
#define hipStreamWaitEvent              cudaStreamWaitEvent
#define hipEventCreateWithFlags         cudaEventCreateWithFlags
#define hipEventDestroy                 cudaEventDestroy
#define hipEventRecord                  cudaEventRecord
#define hipEventSynchronize             cudaEventSynchronize
#define hipEventQuery                   cudaEventQuery
#define hipEventElapsedTime             cudaEventElapsedTime
#define hipMalloc                       cudaMalloc
#define hipFree                         cudaFree
#define hipHostMalloc                   cudaHostAlloc
#define hipHostFree                     cudaFreeHost
#define hipHostRegister                 cudaHostRegister
#define hipHostUnregister               cudaHostUnregister
#define hipMemcpyAsync                  cudaMemcpyAsync
#define hipMemcpy2DAsync                cudaMemcpy2DAsync
#define hipMemsetAsync                  cudaMemsetAsync
#define hipOccupancyMaxActiveBlocksPerMultiprocessor cudaOccupancyMaxActiveBlocksPerMultiprocessor
#define hipFuncSetAttribute             cudaFuncSetAttribute
#define hipLaunchKernel                 cudaLaunchKernel

#endif /* HIP_ON_CUDA_H */
