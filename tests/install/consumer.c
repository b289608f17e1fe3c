/* consumer.c - a program outside the project, built against an installed chunkfill (by
 * pkg-config and by find_package): samples the embedded default pack at 0,64,0 with seed 42
 * and fills one chunk; prints the sample as 'chunkfill sample' does (X Y Z VALUE). */
#include <stdio.h>
#include <stdlib.h>

#include <chunkfill.h>
#include <chunkfill_net.h>

int main(void)
{
    cf_error err = {0};
    cf_pack *pk = NULL;
    cf_program *pg = NULL;
    cf_world *w = NULL;
    const char *fn[] = {"router:final_density"};
    int32_t xyz[3] = {0, 64, 0}, chunk[2] = {0, 0};
    double v;
    if (cf_pack_open(&pk, NULL, 0, NULL, &err) != CF_OK || cf_program_compile(&pg, pk, "minecraft:overworld", fn, 1, &err) != CF_OK
        || cf_world_new(&w, pg, 42, &err) != CF_OK || cf_sample(w, 0, 1, xyz, &v, &err) != CF_OK) {
        fprintf(stderr, "consumer: %s\n", err.message);
        return 1;
    }
    int min_y, height;
    cf_program_settings(pg, &min_y, &height, NULL);
    float *vol = malloc(sizeof(float) * (size_t)height * 256);
    if (!vol || cf_fill_chunks(w, 0, 1, chunk, vol, 1, &err) != CF_OK) {
        fprintf(stderr, "consumer: fill: %s\n", err.message);
        return 1;
    }
    printf("0 64 0 %.9g\n", v);
    free(vol);
    cf_world_free(w);
    cf_program_free(pg);
    cf_pack_free(pk);
    return 0;
}
