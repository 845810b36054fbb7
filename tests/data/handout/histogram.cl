// A 256-bin histogram of bytes: per-work-group counts in local memory, merged with global
// atomics at the end.
__kernel void histogram(__global const uchar *data, const uint n, __global uint *bins,
                        __local uint *local_bins)
{
    uint lid = get_local_id(0), gid = get_global_id(0);
    for (uint b = lid; b < 256; b += get_local_size(0))
        local_bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = gid; i < n; i += get_global_size(0))
        atomic_inc(&local_bins[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < 256; b += get_local_size(0))
        atomic_add(&bins[b], local_bins[b]);
}

// The plain version: every element an atomic on global memory.
__kernel void histogram_global(__global const uchar *data, const uint n, __global uint *bins,
                               __local uint *unused)
{
    uint gid = get_global_id(0);
    for (uint i = gid; i < n; i += get_global_size(0))
        atomic_inc(&bins[data[i]]);
}
