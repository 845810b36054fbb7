/* builds FILE with OPTIONS on the first GPU and prints its PTX */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    FILE *f = fopen(argv[1], "rb");
    if (!f) return 1;
    fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
    char *src = calloc(n + 1, 1); fread(src, 1, n, f); fclose(f);
    cl_platform_id pl[8]; cl_uint np; clGetPlatformIDs(8, pl, &np);
    cl_device_id d = 0;
    for (cl_uint i = 0; i < np && !d; i++) clGetDeviceIDs(pl[i], CL_DEVICE_TYPE_GPU, 1, &d, NULL);
    if (!d) { fprintf(stderr, "no gpu\n"); return 1; }
    cl_int e; cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
    const char *s = src; cl_program p = clCreateProgramWithSource(c, 1, &s, NULL, &e);
    e = clBuildProgram(p, 1, &d, argv[2], NULL, NULL);
    if (e) { char log[65536]; clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL); fprintf(stderr, "%s\n", log); return 1; }
    size_t sz; clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof sz, &sz, NULL);
    unsigned char *bin = malloc(sz + 1); clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
    bin[sz] = 0; fputs((char *)bin, stdout);
    return 0;
}
