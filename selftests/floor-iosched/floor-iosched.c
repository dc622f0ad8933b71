// SPDX-License-Identifier: GPL-2.0
/*
 * The elevator floor: a scheduler with no policy at all, for measurement
 * only.  Requests go to one FIFO per queue and come out in the same
 * order.  What it costs above "none" is the cost of the blk-mq scheduler
 * framework itself (scheduler tags, insert, dispatch), so a benchmark can
 * tell how much of a real scheduler's cost is its own policy.
 *
 * Not part of the series; built out of tree against a kernel's objects.
 */

#include <linux/blkdev.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "elevator.h"
#include "blk-mq-sched.h"

struct floor_data {
	spinlock_t lock;
	struct list_head fifo;
};

static int floor_init_sched(struct request_queue *q, struct elevator_type *e)
{
	struct elevator_queue *eq;
	struct floor_data *fd;

	eq = elevator_alloc(q, e);
	if (!eq)
		return -ENOMEM;
	fd = kzalloc_node(sizeof(*fd), GFP_KERNEL, q->node);
	if (!fd) {
		kobject_put(&eq->kobj);
		return -ENOMEM;
	}
	spin_lock_init(&fd->lock);
	INIT_LIST_HEAD(&fd->fifo);
	eq->elevator_data = fd;
	q->elevator = eq;
	return 0;
}

static void floor_exit_sched(struct elevator_queue *e)
{
	struct floor_data *fd = e->elevator_data;

	WARN_ON_ONCE(!list_empty(&fd->fifo));
	kfree(fd);
}

static void floor_insert_requests(struct blk_mq_hw_ctx *hctx,
				  struct list_head *list, blk_insert_t flags)
{
	struct floor_data *fd = hctx->queue->elevator->elevator_data;

	spin_lock(&fd->lock);
	if (flags & BLK_MQ_INSERT_AT_HEAD)
		list_splice_init(list, &fd->fifo);
	else
		list_splice_tail_init(list, &fd->fifo);
	spin_unlock(&fd->lock);
}

static struct request *floor_dispatch_request(struct blk_mq_hw_ctx *hctx)
{
	struct floor_data *fd = hctx->queue->elevator->elevator_data;
	struct request *rq;

	spin_lock(&fd->lock);
	rq = list_first_entry_or_null(&fd->fifo, struct request, queuelist);
	if (rq)
		list_del_init(&rq->queuelist);
	spin_unlock(&fd->lock);
	return rq;
}

static bool floor_has_work(struct blk_mq_hw_ctx *hctx)
{
	struct floor_data *fd = hctx->queue->elevator->elevator_data;

	return !list_empty_careful(&fd->fifo);
}

/* elv_register() insists on it; there is nothing to release. */
static void floor_finish_request(struct request *rq)
{
}

static struct elevator_type floor_sched = {
	.ops = {
		.init_sched		= floor_init_sched,
		.exit_sched		= floor_exit_sched,
		.insert_requests	= floor_insert_requests,
		.dispatch_request	= floor_dispatch_request,
		.has_work		= floor_has_work,
		.finish_request		= floor_finish_request,
	},
	.elevator_name = "floor",
	.elevator_owner = THIS_MODULE,
};

static int __init floor_init(void)
{
	return elv_register(&floor_sched);
}

static void __exit floor_exit(void)
{
	elv_unregister(&floor_sched);
}

module_init(floor_init);
module_exit(floor_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("No-policy FIFO elevator, for measuring the scheduler framework");
