/* cuda.c - the CUDA back end (placeholder while it is written). */
#include "clcoalesce/backend.h"

static int devices(struct clc_device **list, int *count, bool quiet)
{
    (void)list;
    (void)count;
    if (!quiet)
        clc_error("no CUDA: not written yet");
    return CLC_ERR;
}

const struct clc_backend_ops clc_cuda_ops = {
    .api = CLC_API_CUDA,
    .copy_name = "cuMemcpyDtoD",
    .devices = devices,
};
