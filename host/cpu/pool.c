/* pool.c - idle fill contexts kept per world between calls (cpu.h cf_pool).
 *
 * A context costs megabytes of buffers; made afresh per call, its first touches are page
 * faults. Each kind of context (fill.c's float contexts, fill121.c's double ones,
 * aquifer121.c's 1.21 block contexts) has one pool: a list of idle contexts under a mutex, at
 * most max per world. A call takes one per thread (or makes one) and gives it back;
 * cf_world_free drops a world's. A context embeds a cf_pooled (its world and the link). */
#include "cpu/cpu.h"

cf_pooled *pool_take(cf_pool *p, const cf_world *w, int (*fits)(const cf_pooled *, const void *), const void *arg)
{
    pthread_mutex_lock(&p->mu);
    for (cf_pooled **pp = &p->head; *pp; pp = &(*pp)->next) {
        cf_pooled *o = *pp;
        if (o->w == w && (!fits || fits(o, arg))) {
            *pp = o->next;
            pthread_mutex_unlock(&p->mu);
            o->next = NULL;
            return o;
        }
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

cf_pooled *pool_give(cf_pool *p, cf_pooled *o)
{
    if (!o) return NULL;
    int n = 0;
    pthread_mutex_lock(&p->mu);
    for (cf_pooled *g = p->head; g; g = g->next) n += g->w == o->w;
    if (n < p->max) {
        o->next = p->head;
        p->head = o;
        o = NULL;
    }
    pthread_mutex_unlock(&p->mu);
    return o;
}

cf_pooled *pool_drop(cf_pool *p, const cf_world *w)
{
    cf_pooled *drop = NULL;
    pthread_mutex_lock(&p->mu);
    for (cf_pooled **pp = &p->head; *pp;) {
        cf_pooled *o = *pp;
        if (o->w == w) {
            *pp = o->next;
            o->next = drop;
            drop = o;
        } else {
            pp = &o->next;
        }
    }
    pthread_mutex_unlock(&p->mu);
    return drop;
}

void world_release(cf_world *w)
{
    if (!w) return;
    fill_pool_drop(w); /* the fill contexts kept for it (fill.c) */
    world_free(w);
}
